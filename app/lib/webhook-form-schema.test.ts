import { describe, expect, it } from "vitest";
import { chosenEvents, webhookCreateSchema } from "./webhook-form-schema";

const parse = (fields: Record<string, string | undefined>) =>
  webhookCreateSchema.safeParse({ intent: "create", ...fields });

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
});
