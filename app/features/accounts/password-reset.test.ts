import { describe, expect, it } from "vitest";
import { resetLinkUrl } from "./password-reset";
import { renderPasswordResetMail } from "./password-reset-mail";
import {
  forgotPasswordSchema,
  resetPasswordSchema,
  resetTokenSchema,
} from "./password-reset-schema";

const TOKEN = "A".repeat(42) + "_";

describe("password reset", () => {
  it("builds the link on SITE_URL, with or without a trailing slash", () => {
    expect(resetLinkUrl("https://www.example.fr/", TOKEN)).toBe(
      `https://www.example.fr/auth/nouveau-mot-de-passe?token=${TOKEN}`,
    );
    expect(resetLinkUrl("http://localhost:3000", TOKEN)).toBe(
      `http://localhost:3000/auth/nouveau-mot-de-passe?token=${TOKEN}`,
    );
  });

  it("accepts only a 43-character base64url token", () => {
    expect(resetTokenSchema.safeParse(TOKEN).success).toBe(true);
    expect(resetTokenSchema.safeParse(TOKEN.slice(1)).success).toBe(false);
    expect(resetTokenSchema.safeParse(`${TOKEN.slice(1)}=`).success).toBe(false);
    expect(resetTokenSchema.safeParse("' OR 1=1 --").success).toBe(false);
  });

  it("reads the e-mail trimmed and lower-cased, and refuses what is not one", () => {
    expect(forgotPasswordSchema.parse({ email: "  Admin@Example.FR " }).email).toBe(
      "admin@example.fr",
    );
    expect(forgotPasswordSchema.safeParse({ email: "" }).error?.issues[0].message).toBe(
      "Veuillez saisir votre adresse e-mail.",
    );
    expect(forgotPasswordSchema.safeParse({ email: "pas une adresse" }).success).toBe(false);
  });

  it("asks the new password twice, 12 characters at least", () => {
    const ok = { token: TOKEN, newPassword: "x".repeat(12), confirmPassword: "x".repeat(12) };
    expect(resetPasswordSchema.safeParse(ok).success).toBe(true);
    const mismatch = resetPasswordSchema.safeParse({ ...ok, confirmPassword: "y".repeat(12) });
    expect(mismatch.error?.issues[0].message).toBe("Les deux mots de passe ne correspondent pas.");
    const short = resetPasswordSchema.safeParse({
      ...ok,
      newPassword: "court",
      confirmPassword: "court",
    });
    expect(short.error?.issues[0].message).toMatch(/au moins 12 caractères/);
  });

  it("renders the mail in French, text and HTML, the link escaped in HTML", () => {
    const url = `https://www.example.fr/auth/nouveau-mot-de-passe?token=${TOKEN}&x=<b>`;
    const mail = renderPasswordResetMail({
      url,
      // 14:33 in Paris (winter time, UTC+1).
      expiresAt: new Date("2026-01-05T13:33:00Z"),
      siteName: "ServeurPro\r\nBcc: x@evil.example",
    });
    expect(mail.subject).toBe("Réinitialisation de votre mot de passe");
    expect(mail.text).toContain(url);
    expect(mail.text).toContain("valable 30 minutes, jusqu'au 5 janv. 2026 à 14:33");
    expect(mail.text).toContain("ServeurPro Bcc: x@evil.example");
    expect(mail.html).toContain("&amp;x=&lt;b&gt;");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).toContain('<html lang="fr">');
  });
});
