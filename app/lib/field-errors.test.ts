import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrors, firstFieldError } from "./field-errors";

const schema = z
  .object({
    email: z.string().min(1, "obligatoire").email("invalide"),
    password: z.string().min(3, "trop court"),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "différents" });

function errorsOf(input: unknown) {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected a failure");
  return fieldErrors<"email" | "password" | "confirm">(parsed.error);
}

describe("fieldErrors", () => {
  it("keeps the first message of each field, in the fields' order", () => {
    const errors = errorsOf({ email: "", password: "x", confirm: "x" });
    expect(errors).toEqual({ email: "obligatoire", password: "trop court" });
    expect(Object.keys(errors)).toEqual(["email", "password"]);
  });

  it("includes the messages of refinements placed on a field", () => {
    expect(errorsOf({ email: "a@b.fr", password: "secret", confirm: "other" })).toEqual({
      confirm: "différents",
    });
  });

  it("leaves out form-level issues", () => {
    const parsed = z
      .object({ a: z.string() })
      .refine(() => false, "tout le formulaire")
      .safeParse({ a: "x" });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(fieldErrors(parsed.error)).toEqual({});
  });
});

describe("firstFieldError", () => {
  it("gives the first field's message, or the fallback", () => {
    expect(firstFieldError({ password: "trop court", confirm: "différents" }, "x")).toBe(
      "trop court",
    );
    expect(firstFieldError({}, "Formulaire invalide")).toBe("Formulaire invalide");
  });
});
