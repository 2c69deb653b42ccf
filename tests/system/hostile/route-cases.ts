// Hostile addresses and query parameters on the public pages.
import { type HostileCase, M, type OrFn, XSS_PAYLOADS, post } from "./case-kit";
import { big } from "./contact-cases";

export const get = (
  name: string,
  path: OrFn<string>,
  status: number | number[],
  message?: string,
): HostileCase => ({ name, path, expect: { status, message } });

// Query parameters are lenient: unknown ones are ignored, malformed ones clear their filter
// (the listing redirects to its canonical address); none gives an error.
const LISTED = [200, 302];

export const ROUTE_CASES: HostileCase[] = [
  get("listing: non-numeric price", "/offers?min=abc&max=douze", LISTED),
  get("listing: negative prices", "/offers?min=-5&max=-1", LISTED),
  get("listing: enormous prices", "/offers?min=1e999&max=99999999999999999999999", LISTED),
  get("listing: price with SQL", "/offers?min=1%20OR%201%3D1", LISTED),
  get("listing: unknown type", "/offers?type=mainframe", LISTED),
  get("listing: type as an array", "/offers?type[]=loa&type[]=dedicated", LISTED),
  get("listing: repeated type", "/offers?type=loa&type=%27", LISTED),
  get("listing: unknown engagement", "/offers?engagement=peut-etre", LISTED),
  get("listing: negative, zero and huge pages", "/offers?page=-1&page=0", LISTED),
  get("listing: page far beyond the last", "/offers?page=99999999", LISTED),
  get("listing: unknown parameters", "/offers?utm_source=x&__proto__=1&debug=true", LISTED),
  get("listing: script in the search", `/offers?q=${encodeURIComponent(XSS_PAYLOADS[0])}`, 200),
  get(
    "listing: attribute breakout in the search",
    `/offers?q=${encodeURIComponent(XSS_PAYLOADS[1])}`,
    200,
  ),
  get(
    "listing: SQL in the search",
    `/offers?q=${encodeURIComponent("' OR 1=1; DROP TABLE offers; --")}`,
    200,
  ),
  get("listing: LIKE wildcards in the search", "/offers?q=%25%25_%5C", 200),
  get("listing: NUL and control characters in the search", "/offers?q=a%00b%1b%07", LISTED),
  get("listing: search of 10,000 characters", `/offers?q=${big(10_000)}`, LISTED),
  get("listing: Unicode search", `/offers?q=${encodeURIComponent("山田 🚀 \u202e")}`, 200),
  get("listing: malformed percent-encoding in the query", "/offers?q=%E0%A4%A&min=%", LISTED),
  // Sorting, numeric filters and the comparison (issue 13): junk clears its parameter or is left out.
  get("listing: unknown sort", "/offers?sort=price%3B%20DROP%20TABLE%20offers", LISTED),
  get("listing: repeated sort", "/offers?sort=price_asc&sort=newest", LISTED),
  get("listing: sort as an array", "/offers?sort[]=price_desc", LISTED),
  get("listing: non-numeric RAM and cores", "/offers?ram_min=beaucoup&cores_min=1e9", LISTED),
  get(
    "listing: negative and enormous RAM",
    "/offers?ram_min=-1&cores_min=99999999999999999999",
    LISTED,
  ),
  get(
    "listing: every parameter at once",
    "/offers?q=x&type=loa&min=1&max=2&ram_min=3&cores_min=4&engagement=no&sort=price_desc&page=2",
    LISTED,
  ),
  get("comparison: nothing to compare", "/comparer", 200),
  get(
    "comparison: unknown and inactive offers",
    (v) => `/comparer?offres=inconnue,${v.inactiveOfferSlug}`,
    [200, 302],
  ),
  get(
    "comparison: script and SQL as slugs",
    `/comparer?offres=${encodeURIComponent(`${XSS_PAYLOADS[0]},' OR '1'='1`)}`,
    [200, 302],
  ),
  get(
    "comparison: more than three, repeated",
    (v) =>
      `/comparer?offres=${Array(6).fill(v.activeOfferSlug).join(",")}&offres=a&offres=b&offres=c&offres=d`,
    200,
  ),
  get(
    "comparison: 1,000 slugs",
    `/comparer?offres=${Array.from({ length: 1_000 }, (_, i) => `s${i}`).join(",")}`,
    200,
  ),
  get("comparison: slug of 5,000 characters", `/comparer?offres=${big(5_000)}`, [200, 302]),
  get("comparison: malformed percent-encoding", "/comparer?offres=%E0%A4%A", [200, 302]),
  get("offer: script as slug", "/offers/%3Cscript%3Ealert(1)%3C%2Fscript%3E", 404, M.offerNotFound),
  get("offer: SQL as slug", `/offers/${encodeURIComponent("x' OR '1'='1")}`, 404, M.offerNotFound),
  get("offer: slug of 5,000 characters", `/offers/${big(5_000)}`, 404, M.offerNotFound),
  get("offer: malformed percent-encoding", "/offers/%E0%A4%A", 404),
  get("offer: path traversal", "/offers/..%2F..%2F..%2Fetc%2Fpasswd", 404),
  get("offer: NUL byte in the slug", "/offers/abc%00def", 404, M.offerNotFound),
  get("offer: inactive offer", (v) => `/offers/${v.inactiveOfferSlug}`, 404, M.offerNotFound),
  get(
    "offer: slug in capitals",
    (v) => `/offers/${v.activeOfferSlug.toUpperCase()}`,
    404,
    M.offerNotFound,
  ),
  // The quote PDF (issue 21): the configuration is checked, never a 5xx.
  get(
    "quote: script as option",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?o0=%3Cscript%3E`,
    400,
    M.configurationInvalid,
  ),
  get(
    "quote: negative and decimal options",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?o0=-1&o1=1.5`,
    400,
    M.configurationInvalid,
  ),
  get(
    "quote: enormous duration",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?duree=99999999999999999999`,
    400,
    M.configurationInvalid,
  ),
  get(
    "quote: query of 10,000 characters",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?o0=${big(10_000)}`,
    400,
    M.configurationInvalid,
  ),
  get(
    "quote: out-of-range options and unknown parameters",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?o0=9999&o7=3&utm_source=x&__proto__=1`,
    200,
  ),
  get(
    "quote: malformed percent-encoding",
    (v) => `/offers/${v.activeOfferSlug}/devis.pdf?o0=%E0%A4%A`,
    400,
  ),
  get("quote: script as slug", "/offers/%3Cscript%3E/devis.pdf", 404, M.offerNotFound),
  get(
    "quote: inactive offer",
    (v) => `/offers/${v.inactiveOfferSlug}/devis.pdf`,
    404,
    M.offerNotFound,
  ),
  get("contact page: offer that is not an id", "/contact?offer=abc", 200),
  get("contact page: negative, decimal and exponent offers", "/contact?offer=-1&offer=1.5", 200),
  get("contact page: enormous offer id", "/contact?offer=99999999999999999999", 200),
  get("contact page: SQL in the offer", `/contact?offer=${encodeURIComponent("1 OR 1=1")}`, 200),
  get("contact page: inactive offer id", (v) => `/contact?offer=${v.inactiveOfferId}`, 200),
  get("contact page: offer as an array", "/contact?offer[]=1&offer[x]=2", 200),
  get("home: unknown parameters", "/?__proto__[x]=1&q=%3Cscript%3E", 200),
  get("unknown path with NUL byte", "/%00", 404, M.notFound),
  get("unknown path with script", "/%3Cscript%3Ealert(1)%3C/script%3E", 404, M.notFound),
  get("/offres alias with hostile query", "/offres?type=%3Cscript%3E", 301),
  get("health check with a query", "/healthz?verbose=1", 200),
  {
    name: "URL of 20,000 characters",
    path: `/offers?q=${big(20_000)}`,
    expect: { status: 431, message: M.headersTooLarge },
  },
  {
    name: "forged Host header",
    path: "/",
    headers: [["Host", "evil.example"]],
    expect: { status: 200 },
  },
  ...(
    [
      ["POST", "/"],
      ["POST", "/offers"],
      ["DELETE", "/offers"],
      ["POST", "/offers/x"],
      ["PUT", "/"],
    ] as const
  ).map(([method, path]) =>
    post(
      `${method} ${path} (no action there)`,
      path,
      "a=1",
      { status: 405, message: M.method },
      { method },
    ),
  ),
  // Saved searches (issue 42): junk is a French 4xx, a known address answers as any other.
  post("saved search: no filter", "/recherches", "email=a%40example.fr", {
    status: 400,
    message: "Choisissez d'abord une recherche ou un filtre",
  }),
  post("saved search: bad address", "/recherches?q=epyc", "email=%3Cscript%3E", {
    status: 400,
    message: "Veuillez saisir une adresse e-mail valide.",
  }),
  post("saved search: address of 5,000 characters", "/recherches?q=epyc", `email=${big(5000)}`, {
    status: 400,
  }),
  post("saved search: junk filters", "/recherches?q=%00&min=-1&type[]=x", "email=a%40example.fr", {
    status: 400,
  }),
  get("saved search page: no filter", "/recherches", 404),
  post("saved search confirmation: junk token", "/recherches/confirmer", `jeton=${big(3000)}`, {
    status: 404,
  }),
  post("saved search unsubscription: junk token", "/recherches/desinscription?jeton=%00", "a=1", {
    status: 404,
  }),
  // The contact form's offer search (decision 019): junk is a 400 with a French message, or no match.
  get(
    "offer search: a term of 5,000 characters",
    `/contact/offers?q=${"x".repeat(5000)}`,
    400,
    "La recherche ne doit pas dépasser 100 caractères.",
  ),
  get(
    "offer search: NUL byte",
    "/contact/offers?q=ep%00yc",
    400,
    "La recherche contient des caractères non autorisés.",
  ),
  get("offer search: wildcards and SQL", "/contact/offers?q=%25'%20OR%201%3D1--%20_", 200),
  get("offer search: broken percent-encoding", "/contact/offers?q=%E0%A4%A&q=%", 200),
  get("offer search: as an array, repeated", "/contact/offers?q[]=a&q=epyc&q=%27", 200),
  get("contact page: junk offer search", `/contact?offer_q=%00${"x".repeat(3000)}&offer=-1`, 200),
  post("POST /contact/offers (no action there)", "/contact/offers", "q=epyc", { status: 405 }),
  // The catalogue API (issue 30): strict where the page is lenient, a French JSON 400, never a 5xx.
  get(
    "API: a search of 5,000 characters",
    `/api/offers?q=${"x".repeat(5000)}`,
    400,
    "q : 100 caractères au plus.",
  ),
  get("API: NUL byte in the search (cleaned, like the page)", "/api/offers?q=ep%00yc", 200),
  get("API: wildcards and SQL in the search", "/api/offers?q=%25'%20OR%201%3D1--%20_", 200),
  get(
    "API: broken percent-encoding, repeated",
    "/api/offers?q=%E0%A4%A&q=%",
    400,
    "Paramètre répété : q.",
  ),
  get("API: a parameter as an array", "/api/offers?type[]=loa", 400, "Paramètre inconnu : type[]."),
  get(
    "API: a price past the limit",
    "/api/offers?max=1e9",
    400,
    "max : un nombre entier positif est attendu.",
  ),
  get(
    "API: a page of 10 digits",
    "/api/offers?page=9999999999",
    400,
    "page : un nombre entier positif est attendu.",
  ),
  get("API: a script as a slug", "/api/offers/%3Cscript%3E", 404, "Offre non trouvée"),
  post("POST /api/offers (reads only)", "/api/offers", "q=epyc", { status: 405 }),
  {
    name: "OPTIONS on the contact page",
    method: "OPTIONS",
    path: "/contact",
    expect: { status: 405, message: M.method },
  },
];
