import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readForm } from "./form.server";

function post(body: BodyInit, contentType?: string) {
  const headers = contentType ? { "content-type": contentType } : undefined;
  return new Request("http://localhost/form", { method: "POST", body, headers });
}

const FORM = "application/x-www-form-urlencoded";

async function thrownStatus(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const response = error as { init?: { status?: number }; data?: { message?: string } };
    return { status: response.init?.status, message: response.data?.message };
  }
  throw new Error("expected readForm to throw");
}

const contact = z.object({
  name: z.string().trim().min(1, "Nom obligatoire"),
  phone: z.string().optional(),
  confirm: z.enum(["yes"]).optional(),
});

describe("readForm", () => {
  it("refuses another content type with a French 415", async () => {
    expect(await thrownStatus(readForm(post('{"name":"x"}', "application/json"), contact))).toEqual(
      { status: 415, message: expect.stringContaining("Format de requête non pris en charge") },
    );
  });

  it("refuses an unreadable body with a French 400", async () => {
    const request = post("--x\r\n", "multipart/form-data; boundary=nope");
    expect(await thrownStatus(readForm(request))).toEqual({
      status: 400,
      message: "Le formulaire envoyé est illisible.",
    });
  });

  it("gives the data of a valid form, with empty optional fields as undefined", async () => {
    const submission = await readForm(post("name=+Ana+&phone=&confirm=", FORM), contact);
    expect(submission.success).toBe(true);
    if (submission.success) expect(submission.data).toEqual({ name: "Ana" });
    expect(submission.values).toEqual({ name: " Ana ", phone: "", confirm: "" });
  });

  it("reads missing fields as '' and repeated ones by their first value", async () => {
    const submission = await readForm(post("phone=1&phone=2&other=x", FORM), contact);
    expect(submission.values).toEqual({ name: "", phone: "1", confirm: "" });
    expect(submission.success).toBe(false);
    if (!submission.success) expect(submission.fieldErrors).toEqual({ name: "Nom obligatoire" });
    expect(submission.form.get("other")).toBe("x");
  });

  it("reads a file sent instead of a text field as ''", async () => {
    const form = new FormData();
    form.append("name", new Blob(["MZ"]), "evil.exe");
    const submission = await readForm(
      new Request("http://localhost/", { method: "POST", body: form }),
      contact,
    );
    expect(submission.values.name).toBe("");
    expect(submission.success).toBe(false);
  });

  it("reads the fields of every option of a union", async () => {
    const schema = z.discriminatedUnion("intent", [
      z.object({ intent: z.literal("add"), email: z.string().min(1, "E-mail obligatoire") }),
      z.object({ intent: z.literal("remove"), id: z.string() }),
    ]);
    const removed = await readForm(post("intent=remove&id=4", FORM), schema);
    expect(removed.success && removed.data).toEqual({ intent: "remove", id: "4" });
    const refused = await readForm(post("intent=add", FORM), schema);
    expect(refused.values).toEqual({ intent: "add", email: "", id: "" });
    expect(!refused.success && refused.fieldErrors).toEqual({ email: "E-mail obligatoire" });
  });
});
