import { describe, expect, it } from "vitest";
import { contactFormSchema } from "./contact-form-schema";
import { CONTACT_LIMITS } from "~/lib/limits";

const valid = { name: "Jean", email: "jean@example.fr", phone: "", message: "Bonjour", offer: "" };
const errorOf = (change: Partial<typeof valid>) => {
  const result = contactFormSchema.safeParse({ ...valid, ...change });
  return result.success ? undefined : result.error.issues[0].message;
};

describe("contact form schema", () => {
  it("stores trimmed text, null phone and offer when empty or general", () => {
    expect(contactFormSchema.parse({ ...valid, name: "  Jean  ", offer: "general" })).toEqual({
      name: "Jean",
      email: "jean@example.fr",
      phone: null,
      company: null,
      siren: null,
      message: "Bonjour",
      offer: null,
    });
  });

  it("reads the company and a SIREN with spaces; refuses a SIREN whose key is wrong", () => {
    const parsed = contactFormSchema.parse({ ...valid, company: " ACME ", siren: "732 829 320" });
    expect(parsed).toMatchObject({ company: "ACME", siren: "732829320" });
    expect(contactFormSchema.safeParse({ ...valid, siren: "732 829 321" }).error?.issues).toEqual([
      expect.objectContaining({ path: ["siren"], message: expect.stringMatching(/^Le SIREN/) }),
    ]);
  });

  it("enforces every maximum length with a French message", () => {
    expect(errorOf({ name: "a".repeat(CONTACT_LIMITS.name + 1) })).toBe(
      "Le nom ne doit pas dépasser 100 caractères.",
    );
    expect(errorOf({ message: "a".repeat(CONTACT_LIMITS.message + 1) })).toMatch(/^Le message/);
    expect(errorOf({ phone: "0".repeat(CONTACT_LIMITS.phone + 1) })).toMatch(/^Le téléphone/);
    expect(errorOf({ email: `${"a".repeat(CONTACT_LIMITS.email)}@x.fr` })).toMatch(/^L'adresse/);
  });

  it("refuses control characters but keeps line breaks in the message", () => {
    expect(errorOf({ name: "a\u0000b" })).toBe("Le nom contient des caractères non autorisés.");
    expect(errorOf({ message: "a\u0000b" })).toBe(
      "Le message contient des caractères non autorisés.",
    );
    expect(errorOf({ message: "a\r\n\tb" })).toBeUndefined();
  });

  it("accepts only offer ids a PostgreSQL integer can hold", () => {
    expect(contactFormSchema.parse({ ...valid, offer: "2147483647" }).offer).toBe(2147483647);
    for (const offer of ["2147483648", "0", "-1", "1.0", "abc", " 1"]) {
      expect(errorOf({ offer }), offer).toBe("L'offre sélectionnée n'est pas valide.");
    }
  });
});
