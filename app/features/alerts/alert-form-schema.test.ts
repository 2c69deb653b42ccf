import { describe, expect, it } from "vitest";
import { alertFormSchema, alertOfferParam, alertTokenParam } from "./alert-form-schema";

describe("alert form schema", () => {
  it("accepts an address, trimmed", () => {
    expect(alertFormSchema.parse({ email: "  jeanne@example.fr " })).toEqual({
      email: "jeanne@example.fr",
    });
  });

  it("refuses an empty, malformed, over-long or multi-line address in French", () => {
    const message = (email: string) =>
      alertFormSchema.safeParse({ email }).error?.issues[0]?.message;
    expect(message("")).toBe("Veuillez saisir votre adresse e-mail.");
    expect(message("pas-une-adresse")).toBe("Veuillez saisir une adresse e-mail valide.");
    expect(message(`${"a".repeat(250)}@example.fr`)).toBe(
      "Veuillez saisir une adresse e-mail valide.",
    );
    expect(message("a@example.fr\r\nBcc: b@example.fr")).toBe(
      "Veuillez saisir une adresse e-mail valide.",
    );
  });

  it("reads junk in the address's parameters as none", () => {
    expect(alertOfferParam.parse("serveur-1")).toBe("serveur-1");
    expect(alertOfferParam.parse("<script>")).toBeUndefined();
    expect(alertOfferParam.parse("x".repeat(201))).toBeUndefined();
    expect(alertTokenParam.parse("x".repeat(101))).toBeUndefined();
  });
});
