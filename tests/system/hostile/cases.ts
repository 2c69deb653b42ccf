import { expect } from "vitest";
import { CONTACT_LIMITS } from "../../../app/lib/limits";
import { MAX_BODY_BYTES } from "../../../http-server/request-body";
import { multipart, urlencoded } from "../harness/http";
import type { Snapshot } from "./run";

/** Values known only once the database is up (ids of demo rows...), substituted into cases. */
export type Vars = {
  activeOfferId: number;
  inactiveOfferId: number;
  activeOfferSlug: string;
  inactiveOfferSlug: string;
  /** Rows created for the admin cases: a contact request and two offers to edit and delete. */
  contactId: number;
  editableOfferId: number;
  deletableOfferId: number;
  /** Issue 29: a request on an active offer to send a quote for, one on no offer, and an open sent quote's link token. */
  quoteContactId: number;
  noOfferContactId: number;
  quoteToken: string;
};

export type OrFn<T> = T | ((v: Vars) => T);

/** A contact request row as the administrator will read it. */
export type ContactRow = {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  offerId: number | null;
  status: string;
};

export type HostileCase = {
  name: string;
  method?: string;
  path: OrFn<string>;
  body?: OrFn<string | Buffer>;
  contentType?: string;
  headers?: [string, string][];
  chunked?: boolean;
  /** Sent with a signed-in administrator's session (admin actions). */
  as?: "visitor" | "admin";
  expect: {
    /** One status or the acceptable ones (a 5xx is never acceptable). */
    status: number | number[];
    /** French text the answer must show (HTML entities decoded). */
    message?: string | RegExp;
    /** The one contact request the case must add, exactly as typed. Otherwise nothing may change. */
    stored?: OrFn<ContactRow>;
    /** Any other expected change, checked on the database before and after (admin actions). */
    change?: (before: Snapshot, after: Snapshot, v: Vars) => void;
    /** Where a redirect must lead. */
    location?: RegExp;
  };
};

// Script and markup payloads: stored as typed, never echoed unescaped.
export const XSS_PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<svg/onload=alert(1)>",
  "</textarea><script>alert(document.cookie)</script>",
  "javascript:alert(1)//<a href=x>",
  "<iframe src=javascript:alert(1)></iframe>",
];

export const M = {
  missing: "Veuillez remplir tous les champs obligatoires.",
  nameTooLong: `Le nom ne doit pas dépasser ${CONTACT_LIMITS.name} caractères.`,
  emailTooLong: `L'adresse e-mail ne doit pas dépasser ${CONTACT_LIMITS.email} caractères.`,
  phoneTooLong: `Le téléphone ne doit pas dépasser ${CONTACT_LIMITS.phone} caractères.`,
  messageTooLong: `Le message ne doit pas dépasser ${CONTACT_LIMITS.message} caractères.`,
  nameControl: "Le nom contient des caractères non autorisés.",
  emailControl: "L'adresse e-mail contient des caractères non autorisés.",
  messageControl: "Le message contient des caractères non autorisés.",
  emailInvalid: "Veuillez saisir une adresse e-mail valide.",
  phoneInvalid: "Le numéro de téléphone contient des caractères non valides.",
  offerInvalid: "L'offre sélectionnée n'est pas valide.",
  sent: "Message envoyé !",
  unsupportedType: "Format de requête non pris en charge",
  unreadable: "Le formulaire envoyé est illisible.",
  tooLarge: "Les données envoyées dépassent la taille maximale autorisée",
  compressed: "Les données compressées ne sont pas acceptées.",
  method: "Cette adresse n'accepte pas ce type de requête.",
  notFound: "Oops! Page not found",
  offerNotFound: "Cette offre n'existe pas ou n'est plus disponible.",
  configurationInvalid: "La configuration demandée n'est pas valide",
  badRequest: "Requête invalide.",
  headersTooLarge: "En-têtes de requête trop volumineux.",
} as const;

const FORM = "application/x-www-form-urlencoded";

/**
 * A form post, the shape of most cases: its name, where, what, and what must follow. Anything else
 * (`as`, `headers`, `chunked`, another method or content type) comes in `more`.
 */
export function post(
  name: string,
  path: OrFn<string>,
  body: OrFn<string | Buffer>,
  expect: HostileCase["expect"],
  more: Partial<HostileCase> = {},
): HostileCase {
  return { name, method: "POST", path, contentType: FORM, body, expect, ...more };
}

type ContactFields = {
  name: string;
  email: string;
  phone: string;
  message: string;
  offer: string;
};

/** A stored contact request: post/redirect/get to the confirmation page. */
const SENT = { status: 303, location: /^\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/ } as const;

const VALID: ContactFields = {
  name: "Jean Dupont",
  email: "jean.dupont@example.fr",
  phone: "",
  message: "Bonjour,\nje souhaite un devis.",
  offer: "",
};

/** The row a valid submission stores: trimmed text, empty phone and offer as null. */
function rowOf(fields: ContactFields, offerId: number | null = null): ContactRow {
  return {
    name: fields.name.trim(),
    email: fields.email.trim(),
    phone: fields.phone.trim() || null,
    message: fields.message.trim(),
    offerId,
    status: "pending",
  };
}

/** A contact post that differs from a valid one by `change`, and must be refused with `message`. */
function refused(name: string, change: Partial<ContactFields>, message: string): HostileCase {
  return post(`contact: ${name}`, "/contact", urlencoded({ ...VALID, ...change }), {
    status: 400,
    message,
  });
}

/** A contact post that must be stored exactly as typed. */
function stored(
  name: string,
  change: Partial<ContactFields>,
  offerId?: (v: Vars) => number | null,
): HostileCase {
  const fields = { ...VALID, ...change };
  return post(`contact: ${name}`, "/contact", urlencoded(fields), {
    ...SENT,
    stored: (v) => rowOf(fields, offerId?.(v) ?? null),
  });
}

const big = (n: number, c = "a") => c.repeat(n);

const CONTACT_CASES: HostileCase[] = [
  // Lengths: the limit is accepted, one more is refused.
  stored("name at the limit", { name: big(CONTACT_LIMITS.name, "N") }),
  refused("name over the limit", { name: big(CONTACT_LIMITS.name + 1) }, M.nameTooLong),
  refused("name of 50,000 characters", { name: big(50_000) }, M.nameTooLong),
  refused(
    "e-mail over the limit",
    { email: `${big(CONTACT_LIMITS.email)}@example.fr` },
    M.emailTooLong,
  ),
  refused("phone over the limit", { phone: "0".repeat(CONTACT_LIMITS.phone + 1) }, M.phoneTooLong),
  stored("message at the limit", { message: big(CONTACT_LIMITS.message, "m") }),
  refused("message over the limit", { message: big(CONTACT_LIMITS.message + 1) }, M.messageTooLong),
  // Lengths count characters (code points), not UTF-16 units.
  stored("name of emoji at the limit", { name: "🚀".repeat(CONTACT_LIMITS.name) }),
  refused(
    "name of emoji over the limit",
    { name: "🚀".repeat(CONTACT_LIMITS.name + 1) },
    M.nameTooLong,
  ),
  // Control characters and NUL bytes.
  refused("NUL byte in the name", { name: "Jean\u0000Dupont" }, M.nameControl),
  refused("NUL byte in the message", { message: "Bonjour\u0000" }, M.messageControl),
  refused("NUL byte in the e-mail", { email: "jean\u0000@example.fr" }, M.emailControl),
  refused("escape sequence in the name", { name: "\u001b[31mrouge\u001b[0m" }, M.nameControl),
  refused(
    "header injection in the name",
    { name: "Jean\r\nBcc: victime@example.fr" },
    M.nameControl,
  ),
  refused("bell character in the message", { message: "ding\u0007" }, M.messageControl),
  refused("DEL character in the name", { name: "Jean\u007f" }, M.nameControl),
  refused("line break in the phone", { phone: "06 12\n34 56 78" }, M.phoneInvalid),
  stored("message with line breaks and tabs kept", {
    message: "Ligne 1\r\nLigne 2\n\tindentée\nFin",
  }),
  // Invalid e-mail addresses.
  refused("e-mail without @", { email: "plainaddress" }, M.emailInvalid),
  refused("e-mail without domain", { email: "jean@" }, M.emailInvalid),
  refused("e-mail without local part", { email: "@example.fr" }, M.emailInvalid),
  refused("e-mail without dot in the domain", { email: "jean@localhost" }, M.emailInvalid),
  refused("e-mail with a space", { email: "jean dupont@example.fr" }, M.emailInvalid),
  refused("e-mail with two dots", { email: "jean@example..fr" }, M.emailInvalid),
  refused("two e-mails in one", { email: "a@example.fr, b@example.fr" }, M.emailInvalid),
  refused("e-mail with markup", { email: "<script>@example.fr" }, M.emailInvalid),
  refused(
    "e-mail with header injection",
    { email: "a@example.fr\nBcc: b@example.fr" },
    M.emailControl,
  ),
  stored("e-mail with an apostrophe and a tag", { email: "o'brien+devis@example.fr" }),
  // SQL metacharacters: stored as typed, nothing else touched.
  stored("SQL injection in the name", { name: "Robert'); DROP TABLE contact_requests;--" }),
  stored("SQL tautology in the message", { message: "' OR '1'='1' -- ; SELECT * FROM users;" }),
  stored("LIKE wildcards and backslashes", { name: "100% _réel_ \\ \\\\ %%", message: "%_\\" }),
  stored("quotes of every kind", { name: `"Jean" 'Dupont' \`x\` «a» “b”` }),
  // Script and markup payloads: stored as typed, rendered inert.
  stored("script tag in the name", { name: XSS_PAYLOADS[0] }),
  stored("attribute breakout in the message", { message: XSS_PAYLOADS[1] }),
  stored("SVG onload in the name", { name: XSS_PAYLOADS[2] }),
  stored("textarea breakout in the message", { message: XSS_PAYLOADS[3] }),
  stored("javascript: link in the message", { message: XSS_PAYLOADS[4] }),
  stored("iframe in the message", { message: XSS_PAYLOADS[5] }),
  refused("markup in the phone", { phone: "<b>06</b>" }, M.phoneInvalid),
  // Unicode edge cases: stored as typed.
  stored("accents and CJK", { name: "Zoë Ünïcødé 山田太郎 Łódź" }),
  stored("emoji (astral plane)", { name: "🚀 Équipe 🔥", message: "👍🏽 👨‍👩‍👧 🇫🇷" }),
  stored("right-to-left override", { name: "\u202egnp.exe" }),
  stored("zero-width characters", { name: "Jean\u200bDu\u200dpont\ufeff" }),
  stored("combining marks", { message: "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇" }),
  stored("phone with non-breaking spaces", { phone: "+33\u00a06\u202f12 34 56 78" }),
  refused("name of spaces only", { name: "     " }, M.missing),
  refused("name of non-breaking spaces only", { name: "\u00a0\u202f\u00a0" }, M.missing),
  refused("IDN e-mail not in punycode", { email: "jean@exämple.fr" }, M.emailInvalid),
  // Missing and duplicated fields.
  post(
    "contact: name missing",
    "/contact",
    urlencoded({ email: VALID.email, message: VALID.message }),
    { status: 400, message: M.missing },
  ),
  post(
    "contact: e-mail missing",
    "/contact",
    urlencoded({ name: VALID.name, message: VALID.message }),
    { status: 400, message: M.missing },
  ),
  post(
    "contact: message missing",
    "/contact",
    urlencoded({ name: VALID.name, email: VALID.email }),
    { status: 400, message: M.missing },
  ),
  post("contact: empty body", "/contact", "", { status: 400, message: M.missing }),
  post(
    "contact: duplicated fields keep the first value",
    "/contact",
    urlencoded([
      ["name", "Premier"],
      ["name", "Second"],
      ["email", VALID.email],
      ["email", "autre@example.fr"],
      ["message", VALID.message],
      ["message", "autre"],
    ]),
    { ...SENT, stored: rowOf({ ...VALID, name: "Premier" }) },
  ),
  post(
    "contact: 5,000 repeated unknown fields",
    "/contact",
    `${urlencoded(VALID)}&${"x=1&".repeat(5_000)}`,
    { ...SENT, stored: rowOf(VALID) },
  ),
  post(
    "contact: prototype-polluting field names",
    "/contact",
    `${urlencoded(VALID)}&__proto__[admin]=1&constructor[prototype][x]=1&toString=1`,
    { ...SENT, stored: rowOf(VALID) },
  ),
  // Decoded the WHATWG way: the broken sequence becomes U+FFFD, a lone % stays as typed.
  post(
    "contact: malformed percent-encoding",
    "/contact",
    "name=Jean%E0%A4%A&email=jean%40example.fr&message=%%zz",
    {
      ...SENT,
      stored: rowOf({ ...VALID, name: "Jean\ufffd%A", email: "jean@example.fr", message: "%%zz" }),
    },
  ),
  // Forged offer ids.
  refused("offer that is not a number", { offer: "abc" }, M.offerInvalid),
  refused("negative offer id", { offer: "-1" }, M.offerInvalid),
  refused("offer id 0", { offer: "0" }, M.offerInvalid),
  refused("decimal offer id", { offer: "1.5" }, M.offerInvalid),
  refused("offer id in exponent notation", { offer: "1e3" }, M.offerInvalid),
  refused("offer id beyond a PostgreSQL integer", { offer: "9999999999" }, M.offerInvalid),
  refused("offer id of 30 digits", { offer: "123456789012345678901234567890" }, M.offerInvalid),
  refused("SQL in the offer id", { offer: "1 OR 1=1" }, M.offerInvalid),
  refused("offer id with spaces", { offer: " 1 " }, M.offerInvalid),
  stored("unknown offer id is kept as a general request", { offer: "999999" }, () => null),
  stored("'general' offer means none", { offer: "general" }, () => null),
  {
    ...stored("active offer id", {}),
    body: (v) => urlencoded({ ...VALID, offer: String(v.activeOfferId) }),
    expect: { ...SENT, stored: (v) => rowOf(VALID, v.activeOfferId) },
  },
  // Honeypot: the same answer as a person; kept as suspected spam (autofill may be a real
  // prospect), with no mail queued.
  post(
    "contact: honeypot filled by a robot",
    "/contact",
    urlencoded({ ...VALID, website: "http://spam.example" }),
    {
      ...SENT,
      change: (before, after) => {
        const known = new Set(before.contactRequests.map((r) => r.id));
        const added = after.contactRequests.filter((r) => !known.has(r.id));
        expect(added.map((r) => [r.name, r.email, r.suspectedSpam])).toEqual([
          [VALID.name, VALID.email, true],
        ]);
        expect(after.mailOutbox).toEqual(before.mailOutbox);
        expect({ ...after, contactRequests: before.contactRequests }).toEqual(before);
      },
    },
  ),
  // Wrong content types and encodings.
  {
    name: "contact: JSON body",
    method: "POST",
    path: "/contact",
    contentType: "application/json",
    body: JSON.stringify(VALID),
    expect: { status: 415, message: M.unsupportedType },
  },
  {
    name: "contact: plain text body",
    method: "POST",
    path: "/contact",
    contentType: "text/plain",
    body: urlencoded(VALID),
    expect: { status: 415, message: M.unsupportedType },
  },
  {
    name: "contact: XML body",
    method: "POST",
    path: "/contact",
    contentType: "application/xml",
    body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    expect: { status: 415, message: M.unsupportedType },
  },
  {
    name: "contact: no content type",
    method: "POST",
    path: "/contact",
    body: urlencoded(VALID),
    expect: { status: 415, message: M.unsupportedType },
  },
  {
    name: "contact: multipart form (accepted like the browser's)",
    method: "POST",
    path: "/contact",
    ...(() => {
      const { body, contentType } = multipart(
        Object.entries(VALID).map(([name, value]) => ({ name, value })),
      );
      return { body, contentType };
    })(),
    expect: { ...SENT, stored: rowOf(VALID) },
  },
  {
    name: "contact: malformed multipart",
    method: "POST",
    path: "/contact",
    contentType: "multipart/form-data; boundary=nope",
    body: "--other\r\ngarbage without headers\r\n",
    expect: { status: 400, message: M.unreadable },
  },
  {
    name: "contact: multipart without boundary",
    method: "POST",
    path: "/contact",
    contentType: "multipart/form-data",
    body: "name=x",
    expect: { status: 400, message: M.unreadable },
  },
  {
    name: "contact: files instead of text fields",
    method: "POST",
    path: "/contact",
    ...(() => {
      const { body, contentType } = multipart([
        { name: "name", value: "MZ\u0090\u0000binary", filename: "evil.exe" },
        { name: "email", value: VALID.email },
        { name: "message", value: "x", filename: "../../etc/passwd" },
      ]);
      return { body, contentType };
    })(),
    expect: { status: 400, message: M.missing },
  },
  post(
    "contact: invalid UTF-8 bytes",
    "/contact",
    Buffer.concat([
      Buffer.from("name="),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      Buffer.from("&email=x"),
    ]),
    { status: 400, message: M.missing },
  ),
  post(
    "contact: gzip-encoded body",
    "/contact",
    Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]),
    { status: 415, message: M.compressed },
    { headers: [["Content-Encoding", "gzip"]] },
  ),
  // Bodies over the limit.
  post(
    "contact: body over the limit with its length declared",
    "/contact",
    `${urlencoded(VALID)}&pad=${big(MAX_BODY_BYTES)}`,
    { status: 413, message: M.tooLarge },
  ),
  post(
    "contact: body over the limit, chunked",
    "/contact",
    `${urlencoded(VALID)}&pad=${big(MAX_BODY_BYTES * 2)}`,
    { status: 413, message: M.tooLarge },
    { chunked: true },
  ),
  post(
    "contact: Content-Length of 10 GB announced",
    "/contact",
    urlencoded(VALID),
    { status: 413, message: M.tooLarge },
    { headers: [["Content-Length", "10000000000"]] },
  ),
  post(
    "contact: two different Content-Length headers",
    "/contact",
    urlencoded(VALID),
    { status: 400, message: M.badRequest },
    {
      headers: [
        ["Content-Length", "10"],
        ["Content-Length", "20"],
      ],
    },
  ),
  // Other methods on the contact page.
  ...["PUT", "PATCH", "DELETE"].map((method) =>
    post(
      `contact: ${method} instead of POST`,
      "/contact",
      urlencoded(VALID),
      { status: 405, message: M.method },
      { method },
    ),
  ),
];

const get = (
  name: string,
  path: OrFn<string>,
  status: number | number[],
  message?: string,
): HostileCase => ({ name, path, expect: { status, message } });

// Query parameters are lenient: unknown ones are ignored, malformed ones clear their filter
// (the listing redirects to its canonical address); none gives an error.
const LISTED = [200, 302];

const ROUTE_CASES: HostileCase[] = [
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

// The buyer's answers on a sent quote's page (issue 29): a bad token, a missing or oversized field,
// a foreign body are a 4xx with a French message and change nothing; the one valid acceptance stores
// the name and function exactly as typed; a second answer is refused.
const quotePage = (v: Vars) => `/devis/${v.quoteToken}`;
const ACCEPT = { intent: "accept", name: "Jeanne Martin", role: "Directrice achats", agree: "on" };
const answer = (name: string, fields: Record<string, string>, expect: HostileCase["expect"]) =>
  post(`quote answer: ${name}`, quotePage, urlencoded(fields), expect);

const QUOTE_CASES: HostileCase[] = [
  ...(
    [
      ["unknown token", "A".repeat(43)],
      ["script as token", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
      ["SQL as token", encodeURIComponent("x' OR '1'='1")],
      ["token of 5,000 characters", big(5_000)],
      ["NUL byte in the token", "abc%00def"],
      ["malformed percent-encoding", "%E0%A4%A"],
    ] as const
  ).flatMap(([label, token]) => [
    post(`quote answer: ${label}`, `/devis/${token}`, urlencoded(ACCEPT), {
      status: 404,
      // A well-formed path reaches the page's 404; a malformed one, the site's.
      message: /Ce lien de devis n'est pas valide|Oops/,
    }),
    get(`quote page: ${label}`, `/devis/${token}`, 404),
    get(`quote PDF: ${label}`, `/devis/${token}/pdf`, 404),
  ]),
  answer("no intent", { name: "Jeanne", role: "DG", agree: "on" }, { status: 400 }),
  answer("unknown intent", { ...ACCEPT, intent: "delete" }, { status: 400 }),
  answer("intent as SQL", { ...ACCEPT, intent: "accept' OR 1=1--" }, { status: 400 }),
  answer(
    "missing name",
    { ...ACCEPT, name: "  " },
    { status: 400, message: "Indiquez votre nom." },
  ),
  answer(
    "missing function",
    { ...ACCEPT, role: "" },
    { status: 400, message: "Indiquez votre fonction." },
  ),
  answer(
    "box not ticked",
    { intent: "accept", name: "Jeanne", role: "DG" },
    { status: 400, message: "Cochez la case pour accepter le devis" },
  ),
  answer(
    "box with another value",
    { ...ACCEPT, agree: "yes" },
    { status: 400, message: "Cochez la case pour accepter le devis" },
  ),
  answer(
    "name of 101 characters",
    { ...ACCEPT, name: "x".repeat(101) },
    { status: 400, message: "Le nom ne doit pas dépasser 100 caractères." },
  ),
  answer(
    "name of 100,000 characters",
    { ...ACCEPT, name: "x".repeat(100_000) },
    { status: [400, 413] },
  ),
  answer(
    "NUL byte in the function",
    { ...ACCEPT, role: "DG\u0000" },
    { status: 400, message: "La fonction contient des caractères non autorisés." },
  ),
  answer(
    "escape sequence in the name",
    { ...ACCEPT, name: "Jeanne\u001b[31m" },
    { status: 400, message: "Le nom contient des caractères non autorisés." },
  ),
  answer(
    "refusal reason of 1,001 characters",
    { intent: "decline", confirm: "on", reason: "x".repeat(1001) },
    { status: 400, message: "Le motif ne doit pas dépasser 1000 caractères." },
  ),
  answer(
    "refusal not confirmed",
    { intent: "decline", reason: "Trop cher" },
    { status: 400, message: "Cochez la case pour confirmer le refus du devis." },
  ),
  answer(
    "refusal confirmed with another value",
    { intent: "decline", confirm: "yes" },
    { status: 400, message: "Cochez la case pour confirmer le refus du devis." },
  ),
  {
    name: "quote answer: JSON body",
    method: "POST",
    path: quotePage,
    contentType: "application/json",
    body: JSON.stringify(ACCEPT),
    expect: { status: 415, message: M.unsupportedType },
  },
  post(
    "quote answer: PUT instead of POST",
    quotePage,
    urlencoded(ACCEPT),
    { status: 405 },
    {
      method: "PUT",
    },
  ),
  post("quote PDF: POST (no action there)", (v) => `${quotePage(v)}/pdf`, "a=1", { status: 405 }),
  // The one acceptance: stored exactly as typed, with its status, history, mail; then refused.
  answer(
    "script and SQL as name and function, accepted as typed",
    { ...ACCEPT, name: XSS_PAYLOADS[1], role: "Robert'); DROP TABLE quotes;--" },
    {
      status: 303,
      change: (before, after) => {
        const changed = after.quotes.filter(
          (q) => JSON.stringify(q) !== JSON.stringify(before.quotes.find((b) => b.id === q.id)),
        );
        expect(changed).toHaveLength(1);
        expect(changed[0].acceptedAt).not.toBeNull();
        expect(changed[0].acceptance).toMatchObject({
          name: XSS_PAYLOADS[1],
          role: "Robert'); DROP TABLE quotes;--",
        });
        const request = after.contactRequests.find((c) => c.id === changed[0].contactRequestId);
        expect(request?.status).toBe("accepted");
        const mails = after.mailOutbox.filter((m) => !before.mailOutbox.some((b) => b.id === m.id));
        expect(mails.map((m) => m.kind)).toEqual(["quote_answered"]);
        expect(after.contactStatusChanges).toHaveLength(before.contactStatusChanges.length + 1);
        // The PDF accepted, kept once with the acceptance as typed (issue 40).
        expect(after.signedDocuments).toHaveLength(before.signedDocuments.length + 1);
        expect(after.signedDocuments.at(-1)).toMatchObject({
          reference: changed[0].number,
          pdfSha256: changed[0].acceptance?.pdfSha256,
          acceptance: { name: XSS_PAYLOADS[1], role: "Robert'); DROP TABLE quotes;--" },
        });
        const rest = (s: Snapshot) => ({
          ...s,
          quotes: [],
          contactRequests: s.contactRequests.filter((c) => c.id !== request?.id),
          mailOutbox: [],
          contactStatusChanges: [],
          signedDocuments: [],
        });
        expect(rest(after)).toEqual(rest(before));
      },
    },
  ),
  get("quote page: the accepted quote, its name shown inert", quotePage, 200),
  get("quote PDF: the accepted quote", (v) => `${quotePage(v)}/pdf`, 200),
  answer("a second acceptance", ACCEPT, {
    status: 409,
    message: "Ce devis a déjà été accepté : il ne peut recevoir qu'une réponse.",
  }),
  answer(
    "a refusal after the acceptance",
    { intent: "decline", confirm: "on", reason: "Trop cher" },
    {
      status: 409,
      message: "Ce devis a déjà été accepté",
    },
  ),
];

export const PUBLIC_CASES: HostileCase[] = [...CONTACT_CASES, ...ROUTE_CASES, ...QUOTE_CASES];

/** A state-changing action and a body it would accept from the site itself. */
export type Action = { name: string; path: OrFn<string>; body: OrFn<string>; as?: "admin" };

export const PUBLIC_ACTIONS: Action[] = [
  { name: "contact form", path: "/contact", body: urlencoded(VALID) },
  // `Me prévenir` (issue 30).
  {
    name: "availability alert",
    path: "/alertes?offre=epyc-bare-metal-9254",
    body: urlencoded({ email: "cible@example.fr" }),
  },
  { name: "alert confirmation", path: "/alertes/confirmer", body: urlencoded({ jeton: "x" }) },
  {
    name: "alert unsubscription",
    path: "/alertes/desinscription",
    body: urlencoded({ jeton: "x" }),
  },
  // The buyer's answers to a sent quote (issue 29).
  {
    name: "quote acceptance",
    path: (v) => `/devis/${v.quoteToken}`,
    body: urlencoded({ intent: "accept", name: "Jeanne Martin", role: "DG", agree: "on" }),
  },
  {
    name: "quote refusal",
    path: (v) => `/devis/${v.quoteToken}`,
    body: urlencoded({ intent: "decline", confirm: "on", reason: "Trop cher" }),
  },
  // The catalogue API is read-only: its action answers 405 (issue 30).
  { name: "API offers (405)", path: "/api/offers", body: urlencoded({ q: "x" }) },
  { name: "API offer (405)", path: "/api/offers/starter-web", body: urlencoded({ q: "x" }) },
];

export const FORBIDDEN_ORIGIN = "Requête refusée : origine non autorisée.";

/** Ways a page of another site can post to us; every one must be refused and change nothing. */
export function crossSiteCases(actions: Action[], baseUrl: string): HostileCase[] {
  const { host, port } = new URL(baseUrl);
  const forgeries: [string, [string, string][]][] = [
    ["foreign origin", [["Origin", "https://evil.example"]]],
    ["opaque origin (sandboxed frame, data: URL)", [["Origin", "null"]]],
    [
      "opaque origin from another site's sandboxed frame, as a browser sends it",
      [
        ["Origin", "null"],
        ["Sec-Fetch-Site", "cross-site"],
      ],
    ],
    [
      "opaque origin from a sibling subdomain",
      [
        ["Origin", "null"],
        ["Sec-Fetch-Site", "same-site"],
      ],
    ],
    ["same host name, other port", [["Origin", `http://127.0.0.1:${Number(port) + 1}`]]],
    ["look-alike host", [["Origin", `http://${host}.evil.example`]]],
    ["malformed origin", [["Origin", "not a url"]]],
    ["cross-site fetch metadata without Origin", [["Sec-Fetch-Site", "cross-site"]]],
    ["same-site (sibling subdomain) fetch metadata", [["Sec-Fetch-Site", "same-site"]]],
    [
      "foreign origin with a same-origin Referer",
      [
        ["Origin", "https://evil.example"],
        ["Referer", `${baseUrl}/contact`],
      ],
    ],
  ];
  return actions.flatMap((action) =>
    forgeries.map(([label, headers]) =>
      post(
        `cross-site ${action.name}: ${label}`,
        action.path,
        action.body,
        { status: 403, message: FORBIDDEN_ORIGIN },
        { as: action.as, headers },
      ),
    ),
  );
}
