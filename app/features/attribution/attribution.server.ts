// A visit's origin (issue 42), read from a request: the first page's utm_* parameters and external
// Referer, else the `src` the site's links carry. No cookie, nothing kept in the browser: the
// origin travels in the addresses of the visit and reaches the request with the form's post.
import { z } from "zod";
import {
  type Attribution,
  cleanAttributionValue,
  encodeAttribution,
  hasAttribution,
  NO_ATTRIBUTION,
  referrerHost,
  SOURCE_PARAM,
  SOURCE_PARAM_MAX,
  splitAttribution,
} from "~/lib/attribution";
import { siteConfig } from "~/platform/site.server";

const UTM_FIELDS = {
  source: "utm_source",
  medium: "utm_medium",
  campaign: "utm_campaign",
  term: "utm_term",
  content: "utm_content",
} as const;

/** A parameter's value as kept: capped, cleaned; junk reads as none (never a 400). */
const value = z.string().max(2_000).transform(cleanAttributionValue).catch(null);
/** A referring site is its host name only: no path, no query, nothing a visitor typed. */
const host = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/)
  .nullable()
  .catch(null);
const src = z.string().max(SOURCE_PARAM_MAX).catch("");

/** The Referer's host when it is another site than this one (its address or SITE_URL), else null. */
export function externalReferrer(referer: string | null, own: URL): string | null {
  return host.parse(referrerHost(referer, [own.hostname, new URL(siteConfig().baseUrl).hostname]));
}

/**
 * The origin of the visit a request belongs to: the page's own utm_* (a new visit from a campaign)
 * with its external referring site, else an external referring site alone, else the `src` that a
 * page of the visit passed on; null when nothing says where the visit came from.
 */
export function attributionOf(url: URL, referer: string | null): Attribution | null {
  const params = url.searchParams;
  const referrer = externalReferrer(referer, url);
  const utm = {
    ...NO_ATTRIBUTION,
    ...Object.fromEntries(
      Object.entries(UTM_FIELDS).map(([field, name]) => [field, value.parse(params.get(name))]),
    ),
  } as Attribution;
  if (hasAttribution(utm)) return { ...utm, referrer };
  if (referrer) return { ...NO_ATTRIBUTION, referrer };
  const carried = splitAttribution(src.parse(params.get(SOURCE_PARAM) ?? ""));
  const checked = { ...carried, referrer: host.parse(carried.referrer) };
  return hasAttribution(checked) ? checked : null;
}

/** The `src` a request's page gives its links and forms ('' for none). */
export function visitSource(request: Request): string {
  return encodeAttribution(attributionOf(new URL(request.url), request.headers.get("referer")));
}
