import { describe, expect, it } from "vitest";
import { renderAlertAvailableMail, renderAlertConfirmationMail } from "./alert-mail";

const offer = { title: "Serveur <Pro> 64", reference: "SRV-64" };

describe("alert mails", () => {
  it("asks to confirm, with the link, its 7 days and the unsubscribe link", () => {
    const mail = renderAlertConfirmationMail({
      offer,
      siteName: "ServeurPro",
      confirmUrl: "https://x.example/alertes/confirmer?jeton=abc",
      unsubscribeUrl: "https://x.example/alertes/desinscription?jeton=abc",
    });
    expect(mail.subject).toBe("Confirmez votre alerte : Serveur <Pro> 64");
    expect(mail.text).toContain("https://x.example/alertes/confirmer?jeton=abc");
    expect(mail.text).toContain("valable 7 jours");
    expect(mail.text).toContain(
      "Se désinscrire (un clic, sans connexion) : https://x.example/alertes/desinscription?jeton=abc",
    );
    expect(mail.html).toContain("Serveur &lt;Pro&gt; 64");
    expect(mail.html).not.toContain("<Pro>");
    expect(mail.html).toContain('href="https://x.example/alertes/desinscription?jeton=abc"');
  });

  it("names the offer, its price, its delivery and its link, once", () => {
    const mail = renderAlertAvailableMail({
      offer: { ...offer, price: "89,99 € HT/mois", delivery: "En stock — livraison sous 24 h" },
      offerUrl: "https://x.example/offers/serveur-pro-64",
      unsubscribeUrl: "https://x.example/alertes/desinscription?jeton=t",
    });
    expect(mail.subject).toBe("De nouveau disponible : Serveur <Pro> 64");
    expect(mail.text).toContain("Prix : 89,99 € HT/mois");
    expect(mail.text).toContain("En stock — livraison sous 24 h");
    expect(mail.text).toContain("https://x.example/offers/serveur-pro-64");
    expect(mail.text).toContain("Votre alerte est terminée");
    expect(mail.html).toContain('href="https://x.example/offers/serveur-pro-64"');
  });

  it("keeps header text on one line", () => {
    const mail = renderAlertConfirmationMail({
      offer: { title: "A\r\nBcc: x@example.fr", reference: "R" },
      siteName: "S",
      confirmUrl: "u",
      unsubscribeUrl: "v",
    });
    expect(mail.subject).toBe("Confirmez votre alerte : A Bcc: x@example.fr");
  });
});
