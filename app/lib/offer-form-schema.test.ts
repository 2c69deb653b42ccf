import { describe, expect, it } from "vitest";
import { OFFER_LIMITS } from "./limits";
import {
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
    });
    expect(values).toMatchObject({ type: "loa", description: "", network: "", isActive: false });
    expect(parseOfferForm(values).success).toBe(true);
  });
});
