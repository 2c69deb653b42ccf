import { describe, expect, it } from "vitest";
import { renderSecondFactorAlertMail } from "./account-alert-mail";

describe("renderSecondFactorAlertMail", () => {
  const mail = renderSecondFactorAlertMail({
    baseUrl: "https://www.example.fr/",
    siteName: "Serveur<Pro>",
    // 14:03 in Paris (winter time, UTC+1).
    at: new Date("2026-01-05T13:03:00Z"),
  });

  it("says the password is used with wrong codes, when, and the two ways to change it", () => {
    expect(mail.subject).toBe(
      "Alerte de sécurité : votre mot de passe est utilisé par quelqu'un d'autre",
    );
    expect(mail.text).toContain("Le 5 janv. 2026 à 14:03, le bon mot de passe");
    expect(mail.text).toContain("codes de double authentification erronés");
    expect(mail.text).toContain(
      "« Mon compte » une fois connecté : https://www.example.fr/admin/account",
    );
    expect(mail.text).toContain(
      "« Mot de passe oublié ? » : https://www.example.fr/auth/mot-de-passe-oublie",
    );
    expect(mail.html).toContain('<a href="https://www.example.fr/admin/account">Mon compte</a>');
  });

  it("escapes the site's name in the HTML part", () => {
    expect(mail.html).toContain("Serveur&lt;Pro&gt;");
    expect(mail.html).not.toContain("Serveur<Pro>");
  });
});
