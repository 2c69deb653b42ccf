import type { Pricing } from "./money";

// Identity of the site, as sent to every page by the root loader (values come from app/server/site.server.ts).
export type SiteConfig = {
  name: string;
  slug: string;
  email: string;
  phone: string;
  mainUrl: string;
  legalUrl: string;
  termsUrl: string;
  baseUrl: string;
  /** VAT rate and the figure shown first (VAT_RATE, PRICE_DISPLAY). */
  pricing: Pricing;
};

export function themeStorageKey(site: Pick<SiteConfig, "slug">): string {
  return `${site.slug}-theme`;
}
