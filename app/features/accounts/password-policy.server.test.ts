import { describe, expect, it } from "vitest";
import { PASSWORD_POLICY_MESSAGES, passwordPolicyProblem } from "./password-policy.server";

describe("passwordPolicyProblem", () => {
  it("refuses common and breached passwords, disguised or not", () => {
    for (const password of [
      "password1234",
      "Password1234",
      "azertyuiop",
      "Dragon2024!!!!",
      "soleilsoleilsoleil",
      "aaaaaaaaaaaa",
      "123qweasdzxc",
    ]) {
      expect(passwordPolicyProblem(password), password).toBe(PASSWORD_POLICY_MESSAGES.common);
    }
  });

  it("refuses a password containing the account's e-mail or its name", () => {
    expect(passwordPolicyProblem("jean.dupont@example.fr!", "jean.dupont@example.fr")).toBe(
      PASSWORD_POLICY_MESSAGES.email,
    );
    expect(passwordPolicyProblem("Jean.Dupont 2026 !", "jean.dupont@example.fr")).toBe(
      PASSWORD_POLICY_MESSAGES.email,
    );
  });

  it("lets a long uncommon password through", () => {
    expect(passwordPolicyProblem("correct horse battery staple", "admin@example.fr")).toBeNull();
    expect(passwordPolicyProblem("e2e-admin-password-123", "admin@example.fr")).toBeNull();
    expect(passwordPolicyProblem("un mot de passe assez long", "jo@example.fr")).toBeNull();
  });
});
