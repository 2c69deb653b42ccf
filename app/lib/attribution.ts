// Where a visit came from (issue 42), carried through its pages without a cookie: the first page's
// utm_* parameters and external referring site, written as one short `src` parameter that the
// site's own links and forms carry. Pure code: the server parses it (with zod, in
// features/attribution), the views only pass it on.

/** The query parameter that carries a visit's origin from page to page. */
export const SOURCE_PARAM = "src";

/** The fields of an origin, in the order `src` writes them. */
export const ATTRIBUTION_FIELDS = [
  "source",
  "medium",
  "campaign",
  "term",
  "content",
  "referrer",
] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Record<AttributionField, string | null>;

/** The longest value kept of each field, and of `src` as a whole. */
export const ATTRIBUTION_VALUE_MAX = 100;
export const SOURCE_PARAM_MAX = 400;

/** Between fields of `src`: unreserved in URLs, so `src` stays readable. */
const SEPARATOR = "~";

export const NO_ATTRIBUTION: Attribution = {
  source: null,
  medium: null,
  campaign: null,
  term: null,
  content: null,
  referrer: null,
};

/** A value as kept: trimmed, without control characters or the separator, capped; null if empty. */
export function cleanAttributionValue(value: string | null | undefined): string | null {
  if (!value) return null;
  const cleaned = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f~]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, ATTRIBUTION_VALUE_MAX);
  return cleaned || null;
}

/** Whether an origin says anything. */
export function hasAttribution(attribution: Attribution | null): attribution is Attribution {
  return attribution !== null && ATTRIBUTION_FIELDS.some((field) => attribution[field] !== null);
}

/** `src` for an origin: its fields joined by `~`, empty trailing ones left out; '' for none. */
export function encodeAttribution(attribution: Attribution | null): string {
  if (!hasAttribution(attribution)) return "";
  const values = ATTRIBUTION_FIELDS.map((field) => attribution[field] ?? "");
  while (values.length > 0 && values[values.length - 1] === "") values.pop();
  return values.join(SEPARATOR).slice(0, SOURCE_PARAM_MAX);
}

/** The fields of a `src` as written (each still to be checked by the server). */
export function splitAttribution(src: string): Attribution {
  const values = src.split(SEPARATOR);
  return Object.fromEntries(
    ATTRIBUTION_FIELDS.map((field, i) => [field, cleanAttributionValue(values[i])]),
  ) as Attribution;
}

/**
 * A link of the site that carries the visit's `src` (kept out of hash and other parameters'
 * way); the address itself when the visit has none, so that most links stay as they are.
 */
export function withSource(href: string, src: string | null | undefined): string {
  if (!src || !href.startsWith("/") || href.startsWith("//")) return href;
  const hash = href.indexOf("#");
  const path = hash === -1 ? href : href.slice(0, hash);
  const fragment = hash === -1 ? "" : href.slice(hash);
  const query = path.indexOf("?");
  const params = new URLSearchParams(query === -1 ? "" : path.slice(query + 1));
  params.set(SOURCE_PARAM, src);
  // `~` is unreserved and `,` allowed in a query: kept as is, so that `src` and the comparison's
  // `offres=a,b` stay readable (a query reads them the same either way).
  const search = params.toString().replace(/%7E/gi, "~").replace(/%2C/gi, ",");
  return `${query === -1 ? path : path.slice(0, query)}?${search}${fragment}`;
}

/** A host name as compared: lower-cased, without `www.` and port. */
const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^www\./, "");

/**
 * The Referer's host name when it names another site than `own` (this site's host names), else
 * null: a visit's first page from elsewhere.
 */
export function referrerHost(referer: string | null | undefined, own: string[]): string | null {
  if (!referer) return null;
  let from: URL;
  try {
    from = new URL(referer);
  } catch {
    return null;
  }
  if (from.protocol !== "https:" && from.protocol !== "http:") return null;
  return own.some((host) => bareHost(host) === bareHost(from.hostname))
    ? null
    : from.hostname.toLowerCase();
}

/** An origin as the desk shows it: `newsletter / email — campagne novembre — depuis mail.example.com`. */
export function originLine(origin: Partial<Attribution>): string | null {
  const parts = [
    [origin.source, origin.medium].filter(Boolean).join(" / "),
    origin.campaign ? `campagne ${origin.campaign}` : "",
    origin.term ? `terme ${origin.term}` : "",
    origin.content ? `contenu ${origin.content}` : "",
    origin.referrer ? `depuis ${origin.referrer}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" — ") : null;
}
