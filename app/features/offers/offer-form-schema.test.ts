import { describe, expect, it } from "vitest";
import { OFFER_LIMITS } from "~/lib/limits";
import {
  allOfferNumbers,
  OFFER_FORM_DEFAULTS,
  offerFormValues,
  offerToFormValues,
  type OfferFormValues,
} from "./offer-form";
import { parseOfferForm } from "./offer-form-schema";

const valid: OfferFormValues = {
  ...OFFER_FORM_DEFAULTS,
  title: "Serveur Épique 64",
  reference: "DED-EPQ-64",
  cpu: "AMD EPYC 7543",
  ram: "256 Go",
  storage: "2 × 4 To NVMe",
  price: "899,9",
};

describe("parseOfferForm", () => {
  it("accepts a complete form, generates the slug from the title and normalises the price", () => {
    const result = parseOfferForm(valid);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data).toMatchObject({
      title: "Serveur Épique 64",
      slug: "serveur-epique-64",
      price: "899.90",
      type: "dedicated",
      description: null,
      network: null,
      isActive: true,
      featured: false,
      engagement: false,
    });
  });

  it("keeps a typed slug, folded to the slug rule", () => {
    const result = parseOfferForm({ ...valid, slug: "Mon Slug Spécial" });
    expect(result.success && result.data.slug).toBe("mon-slug-special");
  });

  it("gives the spec's message when a required field is empty", () => {
    for (const field of ["title", "reference", "cpu", "ram", "storage", "price"] as const) {
      const result = parseOfferForm({ ...valid, [field]: "   " });
      expect(result.success, field).toBe(false);
      if (result.success) continue;
      expect(result.missing).toBe(true);
      expect(result.message).toBe("Veuillez remplir tous les champs obligatoires");
      expect(result.fieldErrors[field]).toBe("Ce champ est obligatoire.");
    }
  });

  it("leaves a financed LOA offer's price and option to the scale (decision 038)", () => {
    const lease = { ...valid, type: "loa", financedAmount: "13 000", leaseDurations: "36" };
    for (const typed of [{ price: "" }, { price: "412,50", loaPurchaseOption: "150" }]) {
      const result = parseOfferForm({ ...lease, ...typed });
      expect(result.success && [result.data.price, result.data.loaPurchaseOption]).toEqual([
        null,
        null,
      ]);
    }
    // Without a financed amount the price is typed, and required.
    const typed = parseOfferForm({ ...lease, financedAmount: "", price: "" });
    expect(!typed.success && typed.fieldErrors.price).toBe("Ce champ est obligatoire.");
  });

  it("requires a slug when neither the slug nor the title give one", () => {
    const result = parseOfferForm({ ...valid, title: "€€€", slug: "" });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.fieldErrors.slug).toBe("Ce champ est obligatoire.");
    const typed = parseOfferForm({ ...valid, slug: "!!!" });
    expect(typed.success).toBe(false);
    if (!typed.success) expect(typed.missing).toBe(false);
  });

  it("refuses bad prices and types with French messages", () => {
    for (const price of ["abc", "-1", "1.234", "1e5", "2000000"]) {
      const result = parseOfferForm({ ...valid, price });
      expect(result.success, price).toBe(false);
      if (!result.success) expect(result.fieldErrors.price).toMatch(/^Le prix/);
    }
    const type = parseOfferForm({ ...valid, type: "vps" });
    expect(type.success).toBe(false);
    if (!type.success) expect(type.fieldErrors.type).toBe("Le type d'offre n'est pas valide.");
  });

  it("caps every field's length", () => {
    const fields = [
      "title",
      "reference",
      "slug",
      "description",
      "cpu",
      "ram",
      "storage",
      "network",
      "contractType",
      "metaTitle",
      "metaDescription",
    ] as const;
    for (const field of fields) {
      const result = parseOfferForm({ ...valid, [field]: "a".repeat(OFFER_LIMITS[field] + 1) });
      expect(result.success, field).toBe(false);
      if (!result.success) expect(result.fieldErrors[field]).toMatch(/ne doit pas dépasser/);
    }
  });

  it("refuses NUL and control characters with a French message, keeps line breaks in the description", () => {
    for (const [field, value, label] of [
      ["title", "A\u0000B", "Le titre"],
      ["cpu", "Xeon\u0007", "Le processeur"],
      ["network", "1\u001bGbit/s", "Le réseau"],
      ["description", "ligne 1\u0000", "La description"],
      ["metaDescription", "a\nb", "La description SEO"],
    ] as const) {
      const result = parseOfferForm({ ...valid, [field]: value });
      expect(result.success, field).toBe(false);
      if (!result.success) {
        expect(result.fieldErrors[field]).toBe(`${label} contient des caractères non autorisés.`);
      }
    }
    const result = parseOfferForm({ ...valid, description: "ligne 1\r\nligne 2\n\tfin" });
    expect(result.success).toBe(true);
    if (result.success) expect(result.data.description).toBe("ligne 1\nligne 2\n\tfin");
  });
});

describe("offerFormValues", () => {
  it("reads strings and checkboxes from a posted form", () => {
    const form = new FormData();
    form.set("title", "T");
    form.set("engagement", "on");
    const values = offerFormValues(form);
    expect(values.title).toBe("T");
    expect(values.reference).toBe("");
    expect(values.engagement).toBe(true);
    expect(values.isActive).toBe(false);
    expect(values.featured).toBe(false);
  });

  it("round-trips an offer", () => {
    // Every number of an offer, empty but those set here.
    const numbers = {
      ...allOfferNumbers(null),
      cpuCores: 16,
      storageTb: "1.92",
      setupFee: "0.00",
      loaMonths: 36,
      loaPurchaseOption: "150.00",
      deliveryDays: 10,
      financedAmount: "12000.00",
    };
    const values = offerToFormValues({
      title: "T",
      reference: "R",
      slug: "t",
      description: null,
      type: "loa",
      featured: true,
      cpu: "c",
      ram: "r",
      storage: "s",
      network: null,
      price: "10.00",
      engagement: true,
      contractType: null,
      metaTitle: null,
      metaDescription: null,
      isActive: false,
      ...numbers,
      delivery: "on_order",
      datacenter: "paris",
      options: [{ kind: "quantity", label: "IPv4", min: 0, max: 16, monthly: 200, setup: 0 }],
      leaseDurations: [36, 48],
    });
    expect(values).toMatchObject({
      leaseDurations: "36, 48",
      type: "loa",
      description: "",
      network: "",
      isActive: false,
      cpuCores: "16",
      ramGb: "",
      storageTb: "1.92",
      setupFee: "0.00",
      loaMonths: "36",
      deliveryDays: "10",
      datacenter: "paris",
    });
    const parsed = parseOfferForm(values);
    // The numbers come back as they were stored, but the price and option of a financed LOA
    // offer, which the scale gives (decision 038).
    expect(parsed.success && parsed.data).toMatchObject({
      ...numbers,
      price: null,
      loaPurchaseOption: null,
    });
  });
});

describe("numbers and terms (issue 13)", () => {
  const normalize = (s: string | undefined) => s?.replace(/[\u202f\u00a0]/g, " ");
  const loa = { ...valid, type: "loa" };

  it("leaves every one optional: empty gives null", () => {
    const result = parseOfferForm(valid);
    expect(result.success && result.data).toMatchObject(allOfferNumbers(null));
  });

  it("reads French spellings: decimal comma, spaces, euro sign", () => {
    const result = parseOfferForm({
      ...loa,
      cpuCores: " 32 ",
      ramGb: "1 024",
      storageTb: "7,68",
      bandwidthGbps: "2,5",
      setupFee: "49 €",
      loaMonths: "36",
      loaPurchaseOption: "1 500,5",
    });
    expect(result.success && result.data).toMatchObject({
      cpuCores: 32,
      ramGb: 1024,
      storageTb: "7.68",
      bandwidthGbps: "2.50",
      setupFee: "49.00",
      loaMonths: 36,
      loaPurchaseOption: "1500.50",
    });
  });

  it("keeps a setup fee of zero (offered) apart from none", () => {
    const offered = parseOfferForm({ ...valid, setupFee: "0" });
    expect(offered.success && offered.data.setupFee).toBe("0.00");
  });

  it("refuses values out of bounds or malformed, with a French message per field", () => {
    const cases: [keyof OfferFormValues, string, string][] = [
      ["cpuCores", "0", "Le nombre de cœurs doit être un nombre entier entre 1 et 4 096."],
      ["cpuCores", "8.5", "Le nombre de cœurs doit être un nombre entier entre 1 et 4 096."],
      ["cpuCores", "4097", "Le nombre de cœurs doit être un nombre entier entre 1 et 4 096."],
      ["ramGb", "-64", "La RAM doit être un nombre entier de Go entre 1 et 65 536."],
      ["ramGb", "1e3", "La RAM doit être un nombre entier de Go entre 1 et 65 536."],
      [
        "storageTb",
        "100000.01",
        "Le stockage doit être un nombre de To entre 0,01 et 100 000 (2 décimales au plus).",
      ],
      [
        "storageTb",
        "1.234",
        "Le stockage doit être un nombre de To entre 0,01 et 100 000 (2 décimales au plus).",
      ],
      [
        "bandwidthGbps",
        "0",
        "La bande passante doit être un nombre de Gbit/s entre 0,01 et 10 000 (2 décimales au plus).",
      ],
      [
        "setupFee",
        "-1",
        "Les frais de mise en service doivent être un montant entre 0 et 1 000 000 € avec au plus 2 décimales.",
      ],
      [
        "setupFee",
        "abc",
        "Les frais de mise en service doivent être un montant entre 0 et 1 000 000 € avec au plus 2 décimales.",
      ],
    ];
    for (const [field, value, message] of cases) {
      const result = parseOfferForm({ ...loa, [field]: value });
      expect(result.success, `${field}=${value}`).toBe(false);
      if (!result.success) {
        expect(normalize(result.fieldErrors[field]), `${field}=${value}`).toBe(message);
        expect(result.missing).toBe(false);
      }
    }
    for (const [value, message] of [
      ["0", "La durée doit être un nombre entier de mois entre 1 et 120."],
      ["121", "La durée doit être un nombre entier de mois entre 1 et 120."],
    ]) {
      const result = parseOfferForm({ ...loa, loaMonths: value });
      expect(!result.success && result.fieldErrors.loaMonths).toBe(message);
    }
    const option = parseOfferForm({ ...loa, loaPurchaseOption: "1000000.01" });
    expect(!option.success && normalize(option.fieldErrors.loaPurchaseOption)).toBe(
      "L'option d'achat doit être un montant entre 0 et 1 000 000 € avec au plus 2 décimales.",
    );
  });

  it("refuses LOA terms on a dedicated server", () => {
    const result = parseOfferForm({ ...valid, loaMonths: "24", loaPurchaseOption: "10" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.fieldErrors.loaMonths).toBe("Réservé aux offres de type Location LOA.");
    expect(result.fieldErrors.loaPurchaseOption).toBe("Réservé aux offres de type Location LOA.");
  });
});
