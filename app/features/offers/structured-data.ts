import { OFFER_TYPE_LABELS, type OfferType } from "~/lib/domain";
import { amount } from "~/lib/money";
import type { SiteConfig } from "~/lib/site";

/** JSON for a <script type="application/ld+json">: nothing in it can close the script element. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The home page's schema.org Organization, with the configured public contact. */
export function organizationJsonLd(site: SiteConfig) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.name,
    url: `${site.baseUrl}/`,
    email: site.email,
    telephone: site.phone,
    sameAs: [site.mainUrl],
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "sales",
      email: site.email,
      telephone: site.phone,
      availableLanguage: ["fr"],
      url: `${site.baseUrl}/contact`,
    },
  };
}

export type ProductOffer = {
  slug: string;
  title: string;
  reference: string;
  type: OfferType;
  price: string;
  description: string;
  /** schema.org availability URL (delivery.ts); in stock when not given. */
  availability?: string;
};

/**
 * An offer page's schema.org Product with its Offer: a monthly price in euros and its
 * availability (issue 21: in stock, on order, sold out). The price is the figure the page shows first, HT or TTC, and says
 * which (valueAddedTaxIncluded).
 */
export function productJsonLd(site: SiteConfig, offer: ProductOffer) {
  const url = `${site.baseUrl}/offers/${offer.slug}`;
  const { display } = site.pricing;
  const price = (amount(offer.price, site.pricing)[display] / 100).toFixed(2);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: offer.title,
    sku: offer.reference,
    category: OFFER_TYPE_LABELS[offer.type],
    description: offer.description,
    url,
    brand: { "@type": "Brand", name: site.name },
    offers: {
      "@type": "Offer",
      url,
      price,
      priceCurrency: "EUR",
      availability: offer.availability ?? "https://schema.org/InStock",
      seller: { "@type": "Organization", name: site.name },
      priceSpecification: {
        "@type": "UnitPriceSpecification",
        price,
        priceCurrency: "EUR",
        valueAddedTaxIncluded: display === "ttc",
        referenceQuantity: { "@type": "QuantitativeValue", value: 1, unitCode: "MON" },
      },
    },
  };
}
