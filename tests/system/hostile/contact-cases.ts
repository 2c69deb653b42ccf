// Hostile input on the contact form (issue 4): lengths, characters, fields, encodings, bodies.
import { expect } from "vitest";
import { CONTACT_LIMITS } from "../../../app/lib/limits";
import { MAX_BODY_BYTES } from "../../../http-server/request-body";
import { multipart, urlencoded } from "../harness/http";
import { type ContactRow, type HostileCase, M, type Vars, XSS_PAYLOADS, post } from "./case-kit";

type ContactFields = {
  name: string;
  email: string;
  phone: string;
  message: string;
  offer: string;
};

/** A stored contact request: post/redirect/get to the confirmation page. */
const SENT = { status: 303, location: /^\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/ } as const;

export const VALID: ContactFields = {
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
export function stored(
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

export const big = (n: number, c = "a") => c.repeat(n);

export const CONTACT_CASES: HostileCase[] = [
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
