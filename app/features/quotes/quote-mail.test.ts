import { describe, expect, it } from "vitest";
import { renderQuoteOwnerMail, renderQuoteSentMail } from "./quote-mail";

describe("quote mails", () => {
  it("sends the buyer the number, the validity and the link, escaped in HTML", () => {
    const mail = renderQuoteSentMail({
      number: "DEV-2026-00001",
      validUntil: new Date("2026-12-27T10:00:00Z"),
      url: "https://example.fr/devis/abc?x=<y>",
      siteName: "ServeurPro",
      contact: { email: "contact@example.fr", phone: "01 23 45 67 89" },
    });
    expect(mail.subject).toBe("Votre devis DEV-2026-00001 — ServeurPro");
    expect(mail.text).toContain("https://example.fr/devis/abc?x=<y>");
    expect(mail.html).toContain("x=&lt;y&gt;");
    expect(mail.text).toContain("valable jusqu'au 27 déc. 2026");
  });

  it("tells the owner who accepted, or why it was declined", () => {
    const base = { requestId: 7, number: "DEV-2026-00001", customer: "ACME" };
    const at = new Date("2026-11-27T10:00:00Z");
    const accepted = renderQuoteOwnerMail(
      { ...base, answer: { kind: "accepted", at, name: "Jean <b>", role: "DG" } },
      "https://example.fr",
    );
    expect(accepted.subject).toBe("Devis DEV-2026-00001 accepté");
    expect(accepted.html).toContain("Jean &lt;b&gt;");
    expect(accepted.text).toContain("https://example.fr/admin/contacts/7");
    const declined = renderQuoteOwnerMail(
      { ...base, answer: { kind: "declined", at, reason: null } },
      "https://example.fr",
    );
    expect(declined.text).toContain("Motif : non précisé");
  });
});
