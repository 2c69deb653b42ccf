import { describe, expect, it } from "vitest";
import { contactAdminUrl, escapeHtml, headerText } from "~/features/mail/mail-text";
import {
  acknowledgementData,
  renderContactAcknowledgement,
  renderContactNotification,
  type ContactMailData,
} from "./contact-mail";
import type { Pricing } from "~/lib/money";

const HT: Pricing = { vatRate: 20, display: "ht" };

const base: ContactMailData = {
  id: 42,
  name: "Jeanne Dupont",
  email: "jeanne@example.com",
  phone: "06 12 34 56 78",
  message: "Bonjour,\nJe voudrais un devis.\r\nMerci",
  // 14:03 in Paris (winter time, UTC+1).
  createdAt: new Date("2026-01-05T13:03:00Z"),
  offer: { title: "Serveur Pro", reference: "SRV-001", price: "899.99" },
};

/** The site's contact details as the acknowledgement shows them. */
const contact = {
  name: "ServeurPro",
  email: "contact@example.fr",
  phone: "+33 1 23 45 67 89",
  baseUrl: "https://www.example.fr",
  pricing: { vatRate: 20, display: "ht" as const },
};

describe("renderContactNotification", () => {
  it("puts the name and the offer reference in the subject", () => {
    expect(renderContactNotification(base, "https://www.example.fr", HT).subject).toBe(
      "Nouvelle demande de contact : Jeanne Dupont (SRV-001)",
    );
    expect(
      renderContactNotification({ ...base, offer: null }, "https://www.example.fr", HT).subject,
    ).toBe("Nouvelle demande de contact : Jeanne Dupont");
  });

  it("keeps the subject on one line when the name holds CR/LF (header injection)", () => {
    const { subject } = renderContactNotification(
      { ...base, name: "Eve\r\nBcc: victim@example.com\n", offer: null },
      "https://x.fr",
      HT,
    );
    expect(subject).toBe("Nouvelle demande de contact : Eve Bcc: victim@example.com");
    expect(subject).not.toMatch(/[\r\n]/);
  });

  it("gives every field, the Paris date, the price and the absolute link in the text part", () => {
    const { text } = renderContactNotification(base, "https://www.example.fr/", HT);
    expect(text).toContain("reçue le 5 janv. 2026 à 14:03.");
    expect(text).toContain("Nom : Jeanne Dupont\n");
    expect(text).toContain("E-mail : jeanne@example.com\n");
    expect(text).toContain("Téléphone : 06 12 34 56 78\n");
    expect(text).toMatch(
      /Offre : Serveur Pro \(SRV-001\), 899,99\s€ HT\/mois \(soit 1\s079,99\s€ TTC\/mois\)\n/,
    );
    expect(text).toContain("Message :\nBonjour,\nJe voudrais un devis.\nMerci\n");
    expect(text).toContain("Voir la demande : https://www.example.fr/admin/contacts/42\n");
  });

  it("names a deleted offer from its snapshot, and a request without offer as general", () => {
    const deleted = renderContactNotification(
      { ...base, offer: { title: "Ancien", reference: "OLD-1", price: null } },
      "https://x.fr",
      HT,
    );
    expect(deleted.text).toContain("Offre : Ancien (OLD-1), offre supprimée depuis\n");
    const general = renderContactNotification(
      { ...base, phone: null, offer: null },
      "https://x.fr",
      HT,
    );
    expect(general.text).toContain("Offre : Demande générale\n");
    expect(general.text).toContain("Téléphone : non renseigné\n");
  });

  it("escapes everything the visitor typed in the HTML part and keeps line breaks", () => {
    const { html } = renderContactNotification(
      {
        ...base,
        name: `<script>alert("x")</script>`,
        message: "a <b>gras</b> & 'cité'\nligne 2",
        offer: { title: "<img src=x onerror=alert(1)>", reference: "R&D", price: "10" },
      },
      "https://x.fr",
      HT,
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("a &lt;b&gt;gras&lt;/b&gt; &amp; &#39;cité&#39;<br>\nligne 2");
    expect(html).toContain("R&amp;D");
    expect(html).toContain('<a href="https://x.fr/admin/contacts/42">');
    expect(html).toContain('<a href="mailto:jeanne@example.com">');
  });
});

describe("renderContactAcknowledgement", () => {
  it("gives the reference, the date, the offer and the contact details", () => {
    const mail = renderContactAcknowledgement(acknowledgementData(base), "DEM-2026-00042", contact);
    expect(mail.subject).toBe("ServeurPro : votre demande DEM-2026-00042 a bien été reçue");
    expect(mail.text).toMatch(/^Bonjour,\n/);
    expect(mail.text).toContain("Nous avons bien reçu votre demande du 5 janv. 2026 à 14:03.");
    expect(mail.text).toContain("Référence : DEM-2026-00042");
    expect(mail.text).toContain("Offre : Serveur Pro (SRV-001)\n");
    expect(mail.text).toContain("contact@example.fr · +33 1 23 45 67 89 · https://www.example.fr");
    expect(mail.html).toContain("<strong>DEM-2026-00042</strong>");
    expect(
      renderContactAcknowledgement(acknowledgementData({ ...base, offer: null }), "R", contact)
        .text,
    ).toContain("Offre : Demande générale");
  });

  it("links to `Ma demande` when the mail carries its secret link (issue 42)", () => {
    const followUrl = "https://www.example.fr/ma-demande/abc_DEF-123";
    const mail = renderContactAcknowledgement(acknowledgementData(base), "DEM-2026-00042", {
      ...contact,
      followUrl,
    });
    expect(mail.text).toContain(`Suivre votre demande (statut, devis, échanges) : ${followUrl}\n`);
    expect(mail.html).toContain(
      `<a href="${followUrl}">Suivre votre demande (statut, devis, échanges)</a>`,
    );
    expect(mail.text).toContain("Ce lien est personnel : ne le transférez pas.");
    const without = renderContactAcknowledgement(acknowledgementData(base), "R", contact);
    expect(without.text).not.toContain("/ma-demande/");
  });

  it("repeats nothing the visitor typed: name, phone, message (issue 28)", () => {
    const typed = {
      name: "Gagnant https://gain.example",
      email: "victim@example.com",
      phone: "+33 6 00 00 00 01",
      message: 'Votre compte est bloqué : <a href="https://phish.example/login">connectez-vous</a>',
    };
    const mail = renderContactAcknowledgement(
      acknowledgementData({ ...base, ...typed }),
      "DEM-2026-00042",
      contact,
    );
    for (const part of [mail.subject, mail.text, mail.html]) {
      for (const value of [
        "Gagnant",
        "gain.example",
        "phish.example",
        "bloqué",
        "00 00 01",
        "victim",
      ]) {
        expect(part).not.toContain(value);
      }
    }
    expect(mail.text).toContain("ce message ne reprend pas ce que vous avez saisi");
  });
});

describe("helpers", () => {
  it("headerText removes control and line-separator characters", () => {
    expect(headerText("a\tb\u2028c\u0000d")).toBe("a b c d");
  });
  it("escapeHtml escapes the five special characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
  it("contactAdminUrl joins without a double slash", () => {
    expect(contactAdminUrl("https://a.fr///", 7)).toBe("https://a.fr/admin/contacts/7");
  });

  it("labels the price HT or TTC and follows PRICE_DISPLAY", () => {
    const ttc = renderContactNotification(base, "https://x.fr", { vatRate: 5.5, display: "ttc" });
    // 899.99 HT at 5.5 %: 949.49 TTC.
    expect(ttc.text).toMatch(
      /Offre : Serveur Pro \(SRV-001\), 949,49\s€ TTC\/mois \(soit 899,99\s€ HT\/mois\)\n/,
    );
    expect(ttc.html).toMatch(/949,49\s€ TTC\/mois/);
  });
});

describe("the configuration in both mails (issue 21)", () => {
  const configured: ContactMailData = {
    ...base,
    configuration: {
      lines: [{ group: "Mémoire", value: "512 Go <rapide>", monthly: 12000, setup: 0 }],
      monthly: 101999,
      setup: 4900,
      query: "o0=1",
      lease: null,
    },
  };
  const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

  it("lists the chosen configuration in the team's notification, text and HTML", () => {
    const mail = renderContactNotification(configured, "https://www.example.fr", HT);
    expect(plain(mail.text)).toContain(
      "Configuration choisie :\nMémoire : 512 Go <rapide> (+120,00 € HT/mois)\nTotal : 1 019,99 € HT/mois, mise en service 49,00 € HT",
    );
    expect(plain(mail.html)).toContain("Mémoire : 512 Go &lt;rapide&gt; (+120,00 € HT/mois)");
  });

  it("lists it in the visitor's acknowledgement too, text and HTML", () => {
    const mail = renderContactAcknowledgement(configured, "DEM-2026-00042", contact);
    expect(plain(mail.text)).toContain(
      "Offre : Serveur Pro (SRV-001)\nConfiguration choisie :\nMémoire : 512 Go <rapide> (+120,00 € HT/mois)\nTotal : 1 019,99 € HT/mois, mise en service 49,00 € HT\n",
    );
    expect(plain(mail.html)).toContain("Configuration choisie");
    expect(plain(mail.html)).toContain("Mémoire : 512 Go &lt;rapide&gt; (+120,00 € HT/mois)");
    expect(mail.html).not.toContain("<rapide>");
  });

  it("gives the visitor the totals TTC first with PRICE_DISPLAY=ttc, as the site showed them", () => {
    const ttc = { ...contact, pricing: { vatRate: 20, display: "ttc" as const } };
    const mail = renderContactAcknowledgement(configured, "DEM-2026-00042", ttc);
    expect(plain(mail.text)).toContain(
      "Total : 1 223,99 € TTC/mois (1 019,99 € HT/mois), mise en service 58,80 € TTC\n",
    );
  });

  it("says nothing of a configuration when there is none", () => {
    expect(renderContactAcknowledgement(base, "DEM-2026-00042", contact).text).not.toContain(
      "Configuration",
    );
  });
});
