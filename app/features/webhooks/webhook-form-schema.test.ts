import { describe, expect, it } from "vitest";
import { chosenEvents, webhookCreateSchema } from "./webhook-form-schema";

const parse = (fields: Record<string, string | undefined>, allowHttp = false) =>
  webhookCreateSchema({ allowHttp }).safeParse({ intent: "create", ...fields });

describe("webhookCreateSchema", () => {
  it("accepts an https address with one event", () => {
    const result = parse({ url: " https://crm.example.com/hooks ", updated: "on" });
    expect(result.success).toBe(true);
    expect(result.data?.url.href).toBe("https://crm.example.com/hooks");
    expect(chosenEvents(result.data!)).toEqual(["request.updated"]);
  });

  it("refuses other schemes, credentials, and no event", () => {
    expect(parse({ url: "ftp://crm.example.com", created: "on" }).error?.issues[0].message).toMatch(
      /https:\/\//,
    );
    expect(parse({ url: "https://a:b@crm.example.com", created: "on" }).success).toBe(false);
    expect(parse({ url: "pas une adresse", created: "on" }).success).toBe(false);
    expect(parse({ url: "https://crm.example.com" }).error?.issues[0].message).toBe(
      "Choisissez au moins un événement.",
    );
  });

  it("refuses http:// with a French field error, unless WEBHOOK_ALLOW_PRIVATE allows it", () => {
    const refused = parse({ url: "http://crm.example.com/hooks", created: "on" });
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["url"],
      message: expect.stringMatching(/^L'adresse doit commencer par https:\/\//) as unknown,
    });
    expect(parse({ url: "http://127.0.0.1:8080/hooks", created: "on" }, true).success).toBe(true);
    expect(parse({ url: "ftp://127.0.0.1/", created: "on" }, true).success).toBe(false);
  });
});
