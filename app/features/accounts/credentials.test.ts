import { describe, expect, it } from "vitest";
import { adminCredentialsSchema, issuesToText, signInFormSchema } from "./credentials";

describe("adminCredentialsSchema", () => {
  it("normalises the e-mail and keeps the password as typed", () => {
    expect(
      adminCredentialsSchema.parse({ email: "  Admin@Example.FR ", password: " twelve chars " }),
    ).toEqual({ email: "admin@example.fr", password: " twelve chars " });
  });

  it("explains a bad e-mail in French", () => {
    const result = adminCredentialsSchema.safeParse({ email: "nope", password: "x".repeat(12) });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(issuesToText(result.error)).toBe("L'adresse e-mail n'est pas valide.");
  });

  it("refuses a password under 12 characters", () => {
    const result = adminCredentialsSchema.safeParse({ email: "a@b.fr", password: "x".repeat(11) });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(issuesToText(result.error)).toBe(
        "Le mot de passe doit contenir au moins 12 caractères.",
      );
  });

  it("reports missing values", () => {
    const result = adminCredentialsSchema.safeParse({});
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(issuesToText(result.error)).toContain("L'adresse e-mail est obligatoire.");
      expect(issuesToText(result.error)).toContain("Le mot de passe est obligatoire.");
    }
  });
});

describe("signInFormSchema", () => {
  it("caps lengths", () => {
    expect(signInFormSchema.safeParse({ email: "a@b.fr", password: "x".repeat(257) }).success).toBe(
      false,
    );
    expect(signInFormSchema.safeParse({ email: "", password: "x" }).success).toBe(false);
    expect(signInFormSchema.parse({ email: " A@B.FR ", password: "p" }).email).toBe("a@b.fr");
  });
});
