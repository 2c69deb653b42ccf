import type { Pricing } from "./money";

// Identity of the site, as sent to every page by the root loader (values come from app/platform/site.server.ts).
export type SiteConfig = {
  name: string;
  slug: string;
  email: string;
  phone: string;
  mainUrl: string;
  /** SITE_LEGAL_URL, else the site's own page (LEGAL_NOTICE_PATH). */
  legalUrl: string;
  termsUrl: string;
  baseUrl: string;
  /**
   * Commercial statements beyond the spec's own claims (which are fixed copy): what the provider
   * actually offers, set by environment variables, with neutral defaults so that nothing is promised
   * unknowingly.
   */
  claims: SiteClaims;
  /** VAT rate and the figure shown first (VAT_RATE, PRICE_DISPLAY). */
  pricing: Pricing;
};

export type SiteClaims = {
  /** Text of the home page's 'Serveurs haute performance' card. */
  hardware: string;
  /** Bullet points of the home page's two solution cards. */
  dedicatedPoints: string[];
  loaPoints: string[];
  /** Opening hours under the contact details; empty: not shown. */
  hours: string;
};

export const DEFAULT_CLAIMS: SiteClaims = {
  hardware: "Des configurations adaptées à vos projets, à choisir parmi nos offres.",
  dedicatedPoints: ["Un serveur physique pour vous seul", "Un tarif mensuel"],
  loaPoints: ["Un loyer mensuel", "Une option d'achat en fin de contrat"],
  hours: "",
};

/** 'a; b ;; c' gives ['a', 'b', 'c']: list variables are separated by semicolons. */
export function splitList(text: string): string[] {
  return text
    .split(";")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The slug of the default site name (ServeurPro), for a page rendered without the site config. */
export const DEFAULT_SITE_SLUG = "serveurpro";

export function themeStorageKey(site: Pick<SiteConfig, "slug">): string {
  return `${site.slug}-theme`;
}

/** The site's own legal notice, built from the configuration (issue 21). */
export const LEGAL_NOTICE_PATH = "/mentions-legales";

/** The catalogue for programs (issue 30): the Atom feed and the API's OpenAPI document. */
export const FEED_PATH = "/offers.atom";
export const FEED_TITLE_SUFFIX = "nouvelles offres et retours en stock";
export const OPENAPI_PATH = "/api/openapi.json";
