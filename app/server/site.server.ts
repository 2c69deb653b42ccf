import { slugify } from "~/lib/slug";
import type { SiteConfig } from "~/lib/site";
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
      legalUrl: e.SITE_LEGAL_URL,
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
