import { slugify } from "~/lib/slug";
import type { Seller } from "~/lib/quote";
import { LEGAL_NOTICE_PATH, type SiteConfig } from "~/lib/site";
import { env } from "./env.server";

let cached: SiteConfig | undefined;

export function siteConfig(): SiteConfig {
  if (!cached) {
    const e = env();
    cached = {
      name: e.SITE_NAME,
      slug: slugify(e.SITE_NAME) || "site",
      email: e.SITE_EMAIL,
      phone: e.SITE_PHONE,
      mainUrl: e.SITE_MAIN_URL,
      legalUrl: e.SITE_LEGAL_URL ?? LEGAL_NOTICE_PATH,
      termsUrl: e.SITE_TERMS_URL,
      baseUrl: e.SITE_URL.replace(/\/+$/, ""),
      claims: {
        hardware: e.SITE_HARDWARE_TEXT,
        dedicatedPoints: e.SITE_DEDICATED_POINTS,
        loaPoints: e.SITE_LOA_POINTS,
        hours: e.SITE_HOURS,
      },
      pricing: { vatRate: e.VAT_RATE, display: e.PRICE_DISPLAY },
    };
  }
  return cached;
}

/** The seller on quotes: the legal identity the configuration states. */
export function sellerIdentity(): Seller {
  const e = env();
  return {
    legalName: e.SITE_LEGAL_NAME,
    address: e.SITE_ADDRESS,
    siren: e.SITE_SIREN,
    rcs: e.SITE_RCS,
    vatNumber: e.SITE_VAT_NUMBER,
    email: e.SITE_EMAIL,
    phone: e.SITE_PHONE,
  };
}

/** What /mentions-legales states (LCEN article 6): the publisher, its director and the host. */
export function legalNotice() {
  const e = env();
  return {
    ...sellerIdentity(),
    siteName: e.SITE_NAME,
    legalForm: e.SITE_LEGAL_FORM,
    capital: e.SITE_CAPITAL,
    publicationDirector: e.SITE_PUBLICATION_DIRECTOR,
    hostName: e.SITE_HOST_NAME,
    hostAddress: e.SITE_HOST_ADDRESS,
  };
}

export type LegalNotice = ReturnType<typeof legalNotice>;
