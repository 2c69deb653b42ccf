import { describe, expect, it } from "vitest";
import { quoteDocument, quoteHref, quoteNumber, type QuoteSource } from "./quote";

const sp = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");
const plain = (value: unknown) => JSON.parse(sp(JSON.stringify(value)));

const seller = {
  legalName: "ServeurPro SAS",
  address: "1 rue de l'Exemple, 75000 Paris",
  siren: "123 456 789",
  rcs: "Paris",
  vatNumber: "FR32123456789",
  email: "contact@example.fr",
  phone: "+33 1 23 45 67 89",
};

const context = {
  seller,
  // 23:30 in Paris on 24 November is still the 24th; 30 days later is 24 December.
  issuedAt: new Date("2026-11-24T22:30:00Z"),
  pricing: { vatRate: 20, display: "ht" as const },
  leasingPartner: "Exemple Leasing SA",
  fileSlug: "epyc-64",
};

const dedicated: QuoteSource = {
  offer: {
    title: "EPYC Performance 64",
    reference: "EPYC-64",
    type: "dedicated",
    setupFee: "49.00",
    loaMonths: null,
    loaPurchaseOption: null,
  },
  configuration: {
    lines: [
      { group: "Mémoire", value: "256 Go", monthly: 4000, setup: 0 },
      { group: "IPv4 supplémentaires", value: "4", monthly: 800, setup: 2000 },
    ],
    monthly: 12900 + 4000 + 800,
    setup: 4900 + 2000,
    lease: null,
  },
  vatRate: 20,
};

describe("quoteDocument", () => {
  it("has a row for the base offer and one per option, with their amounts HT", () => {
    const doc = plain(quoteDocument(dedicated, context));
    expect(doc.rows).toEqual([
      {
        label: "Offre de base",
        detail: "EPYC Performance 64 (EPYC-64)",
        monthly: "129,00 €",
        setup: "49,00 €",
      },
      { label: "Mémoire", detail: "256 Go", monthly: "+40,00 €", setup: "—" },
      { label: "IPv4 supplémentaires", detail: "4", monthly: "+8,00 €", setup: "+20,00 €" },
    ]);
  });

  it("totals the month and the setup fee HT, with VAT and TTC", () => {
    const doc = plain(quoteDocument(dedicated, context));
    expect(doc.totals).toEqual([
      { label: "Total HT/mois", value: "177,00 €" },
      { label: "TVA 20 %", value: "35,40 €" },
      { label: "Total TTC/mois", value: "212,40 €", strong: true },
      { label: "Mise en service HT", value: "69,00 €" },
      { label: "TVA 20 % (mise en service)", value: "13,80 €" },
      { label: "Mise en service TTC", value: "82,80 €", strong: true },
    ]);
    expect(doc.lease).toBeNull();
  });

  it("is indicative, dated in Paris and valid 30 days", () => {
    const doc = quoteDocument(dedicated, context);
    expect(doc.title).toBe("Devis indicatif");
    expect(doc.issued).toBe("24 novembre 2026");
    expect(doc.validUntil).toBe("24 décembre 2026");
    expect(doc.notes[0]).toContain("valable 30 jours, jusqu'au 24 décembre 2026");
    expect(doc.fileName).toBe("devis-epyc-64-2026-11-24.pdf");
    expect(doc.number).toBeNull();
    expect(doc.customer).toBeNull();
    expect(doc.seller.lines).toContain("SIREN 123 456 789 — RCS Paris");
    expect(doc.seller.lines).toContain("N° TVA intracommunautaire : FR32123456789");
  });

  it("says 'Offerte' for a stated free setup, and nothing for an unstated one", () => {
    const free = { ...dedicated, configuration: { ...dedicated.configuration, lines: [] } };
    const stated = quoteDocument(
      { ...free, configuration: { ...free.configuration, monthly: 12900, setup: 0 } },
      context,
    );
    expect(stated.totals.map((t) => t.label)).toContain("Mise en service");
    const unstated = quoteDocument(
      {
        ...free,
        offer: { ...free.offer, setupFee: null },
        configuration: { ...free.configuration, monthly: 12900, setup: 0 },
      },
      context,
    );
    expect(unstated.totals.map((t) => t.label).join()).not.toMatch(/Mise en service/);
  });

  it("gives an LOA's lease terms as the offer page words them, with the financer's mention", () => {
    const lease: QuoteSource = {
      offer: {
        title: "LOA PME 36 mois",
        reference: "LOA-PME",
        type: "loa",
        setupFee: null,
        loaMonths: 36,
        loaPurchaseOption: null,
      },
      // 13 000 € financed at 0.03150 over 36 months, option 1.5 %.
      configuration: {
        lines: [],
        monthly: 40950,
        setup: 0,
        lease: { months: 36, option: 19500, total: 40950 * 36 + 19500 },
      },
      vatRate: 20,
    };
    const doc = plain(quoteDocument(lease, context));
    expect(doc.rows[0]).toMatchObject({ label: "Loyer de base", monthly: "409,50 €" });
    expect(doc.lease).toEqual([
      { label: "Durée", value: "36 mois" },
      { label: "Loyer/mois", value: "409,50 € HT (soit 491,40 € TTC)" },
      { label: "Option d'achat", value: "195,00 € HT (soit 234,00 € TTC)" },
      {
        label: "Coût total",
        value: "14 937,00 € HT (soit 17 924,40 € TTC)",
        strong: true,
      },
    ]);
    expect(doc.notes.join(" ")).toContain(
      "sous réserve d'acceptation du dossier par Exemple Leasing SA, organisme financeur",
    );
  });

  it("addresses a request's quote to the person, under its number", () => {
    const doc = quoteDocument(dedicated, {
      ...context,
      number: quoteNumber(2026, 42),
      customer: { name: "Alice Martin", email: "alice@example.fr", company: null },
    });
    expect(doc.number).toBe("DEV-2026-00042");
    expect(doc.fileName).toBe("DEV-2026-00042.pdf");
    expect(doc.customer).toEqual(["Alice Martin", "alice@example.fr"]);
  });

  it("is no longer indicative once sent to be accepted: its acceptance is the order", () => {
    const doc = quoteDocument(dedicated, {
      ...context,
      number: "DEV-2026-00043",
      validityDays: 15,
    });
    expect(doc.title).toBe("Devis");
    expect(doc.notes[0]).toBe(
      "Devis valable 15 jours, jusqu'au 9 décembre 2026. Son acceptation (bon pour accord) vaut commande aux conditions générales de vente.",
    );
    expect(doc.notes.join(" ")).not.toMatch(/indicati/);
  });
});

describe("quoteHref", () => {
  it("carries the configuration's query", () => {
    expect(quoteHref("epyc", "o0=1&duree=36")).toBe("/offers/epyc/devis.pdf?o0=1&duree=36");
    expect(quoteHref("epyc", "")).toBe("/offers/epyc/devis.pdf");
  });
});
