import { describe, expect, it } from "vitest";
import { DEFAULT_CLAIMS, type SiteConfig } from "~/lib/site";
import { jsonLdText, organizationJsonLd, productJsonLd } from "./structured-data";

const site: SiteConfig = {
  name: "ServeurPro",
  slug: "serveurpro",
  email: "contact@example.fr",
  phone: "+33 1 23 45 67 89",
  mainUrl: "https://www.example.fr",
  legalUrl: "https://www.example.fr/mentions-legales",
  termsUrl: "https://www.example.fr/cgu",
  baseUrl: "https://serveurs.example.fr",
  claims: DEFAULT_CLAIMS,
  pricing: { vatRate: 20, display: "ht" },
};

describe("structured data", () => {
  it("never lets text close the script element", () => {
    const text = jsonLdText({ name: "</script><script>alert(1)</script> & \u2028" });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ name: "</script><script>alert(1)</script> & \u2028" });
  });

  it("describes the organization with the configured contact", () => {
    const data = organizationJsonLd(site);
    expect(data).toMatchObject({
      "@type": "Organization",
      name: "ServeurPro",
      url: "https://serveurs.example.fr/",
      email: "contact@example.fr",
      telephone: "+33 1 23 45 67 89",
    });
  });

  it("describes an offer as a Product with a monthly Offer in euros", () => {
    const data = productJsonLd(site, {
      slug: "epyc-performance-64",
      title: "EPYC Performance 64",
      reference: "DED-EPYC-7543",
      type: "dedicated",
      price: "899.9",
      description: "Serveur dédié",
    });
    expect(data["@type"]).toBe("Product");
    expect(data.offers).toMatchObject({
      "@type": "Offer",
      price: "899.90",
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
      url: "https://serveurs.example.fr/offers/epyc-performance-64",
    });
    expect(data.offers.priceSpecification).toMatchObject({
      price: "899.90",
      valueAddedTaxIncluded: false,
    });
  });

  it("gives the offer's availability", () => {
    const data = productJsonLd(site, {
      slug: "s",
      title: "T",
      reference: "R",
      type: "dedicated",
      price: "10.00",
      description: "D",
      availability: "https://schema.org/OutOfStock",
    });
    expect(data.offers.availability).toBe("https://schema.org/OutOfStock");
  });

  it("gives the TTC price and says so when the site shows TTC first", () => {
    const data = productJsonLd(
      { ...site, pricing: { vatRate: 20, display: "ttc" } },
      {
        slug: "epyc-performance-64",
        title: "EPYC Performance 64",
        reference: "DED-EPYC-7543",
        type: "dedicated",
        price: "899.99",
        description: "Serveur dédié",
      },
    );
    expect(data.offers.price).toBe("1079.99");
    expect(data.offers.priceSpecification).toMatchObject({
      price: "1079.99",
      valueAddedTaxIncluded: true,
    });
  });
});
