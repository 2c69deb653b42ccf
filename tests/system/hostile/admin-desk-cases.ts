// Hostile input on the requests' desk: statuses, mail retries, list reads, personal data, quotes.
import { expect } from "vitest";
import { urlencoded } from "../harness/http";
import { post, XSS_PAYLOADS, type HostileCase, type Vars } from "./cases";
import type { Snapshot } from "./run";
import { type FormRow, M, adminForms, adminGet, adminPost } from "./admin-forms";

export const CONTACT_STATUS_CASES: HostileCase[] = [
  ...adminForms("admin contact status:", "/admin/contacts", (v) => ({ id: String(v.contactId) }), [
    ["unknown status", { status: "hacked" }, 400, M.statusInvalid],
    [
      "status with SQL",
      { status: "completed'; DROP TABLE contact_requests;--" },
      400,
      M.statusInvalid,
    ],
    ["status missing", {}, 400, M.statusInvalid],
    ["id not a number", { id: "abc", status: "completed" }, 400, M.statusInvalid],
    ["negative id", { id: "-3", status: "completed" }, 400, M.statusInvalid],
    [
      "id beyond a PostgreSQL integer",
      { id: "99999999999", status: "completed" },
      400,
      M.statusInvalid,
    ],
    ["unknown id", { id: "999999", status: "completed" }, 404, M.contactGone],
  ]),
  adminPost(
    "admin contact status: hostile filter ignored, status changed",
    "/admin/contacts",
    (v) => urlencoded({ id: String(v.contactId), status: "in_progress", filter: "<script>" }),
    {
      status: 302,
      change: (before, after, v) => {
        const changed = after.contactRequests.find((c) => c.id === v.contactId);
        expect(changed?.status).toBe("in_progress");
        expect(changed?.updatedAt.getTime()).toBeGreaterThanOrEqual(
          before.contactRequests.find((c) => c.id === v.contactId)!.updatedAt.getTime(),
        );
        const others = (s: Snapshot) => s.contactRequests.filter((c) => c.id !== v.contactId);
        expect(others(after)).toEqual(others(before));
        // Its history line (issue 29's snapshot holds the history too).
        expect(after.contactStatusChanges).toHaveLength(before.contactStatusChanges.length + 1);
        const rest = (s: Snapshot) => ({ ...s, contactRequests: [], contactStatusChanges: [] });
        expect(rest(after)).toEqual(rest(before));
      },
    },
  ),
];

// The dashboard's retry of a failed notification e-mail: nothing may change on a bad request.
export const MAIL_RETRY_CASES: HostileCase[] = [
  ...adminForms("admin mail retry:", "/admin", {}, [
    ["intent missing", { id: "1" }, 400, M.mailRetryInvalid],
    ["other intent", { intent: "delete", id: "1" }, 400, M.mailRetryInvalid],
    ["id not a number", { intent: "retry-mail", id: "abc" }, 400, M.mailRetryInvalid],
    ["id with SQL", { intent: "retry-mail", id: "1 OR 1=1" }, 400, M.mailRetryInvalid],
    ["id beyond an integer", { intent: "retry-mail", id: "99999999999" }, 400, M.mailRetryInvalid],
    ["unknown id", { intent: "retry-mail", id: "999999" }, 409, M.mailNotFailed],
  ]),
  post(
    "admin mail retry without a session",
    "/admin",
    urlencoded({ intent: "retry-mail", id: "1" }),
    { status: 401, message: M.unauthorized },
  ),
];

export const ADMIN_READ_CASES: HostileCase[] = [
  // Dropped: a redirect to the canonical list address.
  adminGet("admin contacts: unknown status filter", "/admin/contacts?status=hacked", {
    status: 302,
  }),
  adminGet(
    "admin contacts: status filter with script",
    "/admin/contacts?status=%3Cscript%3E&status=pending",
    { status: 302 },
  ),
  adminGet("admin offers: edit id not a number", "/admin/offers?edit=abc", { status: 200 }),
  adminGet(
    "admin offers: edit id unknown (former address, sent to the editor page)",
    "/admin/offers?edit=999999",
    { status: 302, location: /^\/admin\/offers\/999999$/ },
  ),
  ...(
    [
      ["not a number", "abc"],
      ["zero", "0"],
      ["beyond a PostgreSQL integer", "99999999999"],
      ["with SQL", "1%20OR%201%3D1"],
      ["unknown", "999999"],
    ] as const
  ).map(([label, id]): HostileCase =>
    adminGet(`admin offer editor: id ${label}`, `/admin/offers/${id}`, {
      status: 404,
      message: M.offerGone,
    }),
  ),
  adminGet("admin offer copy: source unknown", "/admin/offers/new?from=999999", {
    status: 404,
    message: M.offerGone,
  }),
  adminGet(
    "admin offer copy: source junk",
    "/admin/offers/new?from=%3Cscript%3E&returnTo=%2F%2Fevil.example",
    { status: 404, message: M.offerGone },
  ),
  adminGet(
    "admin offer editor: open redirect in returnTo ignored",
    "/admin/offers/new?returnTo=https%3A%2F%2Fevil.example%2Fadmin%2Foffers%3Fpage%3D2",
    { status: 200 },
  ),
  adminGet(
    "admin offers: junk list parameters",
    "/admin/offers?page=-1&page=abc&type=%3Cscript%3E&status=1%27--&q=%25%5F%5C%00",
    { status: 302, location: /^\/admin\/offers\?q=%25_%5C$/ },
  ),
  adminGet(
    "admin offers: enormous page and search",
    `/admin/offers?page=99999999999999999999&q=${"%25".repeat(2000)}`,
    { status: 302, location: /^\/admin\/offers\?q=(%25){100}$/ },
  ),
  adminGet("admin offers: delete id enormous", "/admin/offers?delete=99999999999999999999", {
    status: 200,
  }),
  adminGet("admin offers: unknown parameters", "/admin/offers?new=<script>&__proto__[x]=1", {
    status: 200,
  }),
  {
    name: "sign-in page: open redirect in the query",
    path: "/auth?redirectTo=//evil.example",
    expect: { status: 200 },
  },
  { name: "admin page without session", path: "/admin/offers?edit=1", expect: { status: 302 } },
  { name: "offer editor without session", path: "/admin/offers/1", expect: { status: 302 } },
  { name: "offer copy without session", path: "/admin/offers/new?from=1", expect: { status: 302 } },
];

/** Personal data of one address (issue 12): odd addresses get a French 400, nothing is erased. */
const INVALID_EMAIL = "Veuillez saisir une adresse e-mail valide.";

export const PERSONAL_DATA_CASES: HostileCase[] = [
  ...(
    [
      ["script", "%3Cscript%3Ealert(1)%3C%2Fscript%3E%40example.fr"],
      ["NUL byte", "existante%00%40example.fr"],
      ["SQL", "%27%20OR%20%271%27%3D%271"],
      ["overlong", `${"a".repeat(300)}%40example.fr`],
      ["LIKE wildcards", "%25%40%25"],
    ] as [string, string][]
  ).flatMap(([label, email]): HostileCase[] => [
    adminGet(`personal data: ${label} in the address`, `/admin/personal-data?email=${email}`, {
      status: 400,
      message: INVALID_EMAIL,
    }),
    adminGet(
      `personal data export: ${label} in the address`,
      `/admin/personal-data/export?email=${email}`,
      { status: 400, message: INVALID_EMAIL },
    ),
  ]),
  adminGet(
    "personal data: repeated address parameter",
    "/admin/personal-data?email=existante%40example.fr&email=%3Cscript%3E",
    { status: 200 },
  ),
  {
    name: "personal data export without a session",
    path: "/admin/personal-data/export?email=existante%40example.fr",
    expect: { status: 302 },
  },
  adminPost(
    "personal data erase: no address",
    "/admin/personal-data",
    urlencoded({ intent: "erase", confirm: "yes" }),
    { status: 400, message: "Veuillez saisir l'adresse e-mail de la personne concernée." },
  ),
  adminPost(
    "personal data erase: SQL as the address",
    "/admin/personal-data",
    urlencoded({ intent: "erase", email: "' OR '1'='1", confirm: "yes" }),
    { status: 400, message: INVALID_EMAIL },
  ),
  adminPost(
    "personal data erase: unknown intent",
    "/admin/personal-data",
    urlencoded({ intent: "drop", email: "existante@example.fr", confirm: "yes" }),
    { status: 400, message: "Requête invalide" },
  ),
  adminPost(
    "personal data erase: not confirmed (asks, erases nothing)",
    "/admin/personal-data",
    urlencoded({ intent: "erase", email: "existante@example.fr" }),
    { status: 200 },
  ),
  {
    name: "personal data erase: JSON body",
    method: "POST",
    path: "/admin/personal-data",
    as: "admin",
    contentType: "application/json",
    body: JSON.stringify({ intent: "erase", email: "existante@example.fr", confirm: "yes" }),
    expect: { status: 415, message: /Format de requête/ },
  },
  post(
    "personal data erase without a session",
    "/admin/personal-data",
    urlencoded({ intent: "erase", email: "existante@example.fr", confirm: "yes" }),
    { status: 401, message: M.unauthorized },
  ),
];

// `Envoyer le devis` (issue 29): a bad validity or discount, a request that is not there or names no
// offer, a foreign body: a 4xx with a French message, no quote numbered, no status moved, no mail.
const quotePath = (v: Vars) => `/admin/contacts/${v.quoteContactId}/envoyer-devis`;

const QUOTE_SEND_ROWS: FormRow[] = [
  ["validity not a number", { validity: "trente" }, 400, M.quoteValidity],
  ["validity of zero days", { validity: "0" }, 400, "La validité est d'un jour au moins."],
  ["negative validity", { validity: "-30" }, 400, M.quoteValidity],
  ["validity of 999 days", { validity: "999" }, 400, /La validité est de \d+ jours au plus\./],
  ["validity of 10,000 digits", { validity: "9".repeat(10_000) }, 400, M.quoteValidity],
  ["validity with SQL", { validity: "30; DROP TABLE quotes;--" }, 400, M.quoteValidity],
  ["discount above 100 %", { discount0: "150" }, 400, M.quoteDiscount],
  ["negative discount", { discount0: "-5" }, 400, M.quoteDiscount],
  ["discount with three decimals", { discount1: "1.005" }, 400, M.quoteDiscount],
  ["script as a discount", { discount0: XSS_PAYLOADS[0] }, 400, M.quoteDiscount],
  ["NUL byte in a discount", { discount2: "1\u0000" }, 400, M.quoteDiscount],
  ["exponent as a discount", { discount0: "1e2" }, 400, M.quoteDiscount],
];

export const QUOTE_SEND_CASES: HostileCase[] = [
  ...QUOTE_SEND_ROWS.map(([label, fields, status, message]) =>
    adminPost(
      `admin send quote: ${label}`,
      quotePath,
      urlencoded({ validity: "30", discount0: "0", ...fields }),
      { status, message },
    ),
  ),
  adminPost(
    "admin send quote: a request that names no offer",
    (v) => `/admin/contacts/${v.noOfferContactId}/envoyer-devis`,
    urlencoded({ validity: "30" }),
    { status: 409, message: "Cette demande ne porte sur aucune offre à chiffrer" },
  ),
  ...["abc", "-1", "999999", "99999999999999999999", "%3Cscript%3E"].map((id) =>
    adminPost(
      `admin send quote: request id ${id}`,
      `/admin/contacts/${id}/envoyer-devis`,
      urlencoded({ validity: "30" }),
      { status: 404 },
    ),
  ),
  {
    name: "admin send quote: JSON body",
    method: "POST",
    path: quotePath,
    as: "admin",
    contentType: "application/json",
    body: JSON.stringify({ validity: "30" }),
    expect: { status: 415, message: /Format de requête/ },
  },
  adminPost(
    "admin send quote: PUT instead of POST",
    quotePath,
    urlencoded({ validity: "30" }),
    { status: 405 },
    { method: "PUT" },
  ),
  post("admin send quote without a session", quotePath, urlencoded({ validity: "30" }), {
    status: 401,
    message: M.unauthorized,
  }),
  post(
    "admin send quote with a forged session",
    quotePath,
    urlencoded({ validity: "30" }),
    { status: 401, message: M.unauthorized },
    { headers: [["Cookie", `admin_session=${"A".repeat(43)}`]] },
  ),
  // The one that is sent: a new number, the status `Devis envoyé` with its history, the mail queued.
  adminPost(
    "admin send quote: hostile extra fields ignored, the quote sent",
    quotePath,
    urlencoded([
      ["validity", "15"],
      ["discount0", "10,5"],
      ["discount99", "<script>"],
      ["__proto__", "x"],
    ]),
    {
      status: 302,
      change: (before, after, v) => {
        const added = after.quotes.filter((q) => !before.quotes.some((b) => b.id === q.id));
        expect(added).toHaveLength(1);
        expect(added[0]).toMatchObject({ contactRequestId: v.quoteContactId });
        expect(added[0].number).toMatch(/^DEV-\d{4}-\d{5}$/);
        expect(added[0].terms?.discounts[0]).toBe(10.5);
        expect(after.contactRequests.find((c) => c.id === v.quoteContactId)?.status).toBe(
          "quote_sent",
        );
        const mails = after.mailOutbox.filter((m) => !before.mailOutbox.some((b) => b.id === m.id));
        expect(mails.map((m) => [m.contactRequestId, m.kind])).toEqual([
          [v.quoteContactId, "quote_sent"],
        ]);
        expect(after.contactStatusChanges).toHaveLength(before.contactStatusChanges.length + 1);
        const rest = (s: Snapshot) => ({
          ...s,
          quotes: [],
          contactRequests: s.contactRequests.filter((c) => c.id !== v.quoteContactId),
          mailOutbox: [],
          contactStatusChanges: [],
        });
        expect(rest(after)).toEqual(rest(before));
      },
    },
  ),
];
