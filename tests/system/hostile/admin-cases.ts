import { expect } from "vitest";
import { AUTH_LIMITS, OFFER_LIMITS } from "../../../app/lib/limits";
import { RESET_MESSAGES } from "../../../app/features/accounts/password-reset";
import { EMPTY_OFFER_NUMBERS, VALID_OFFER_FORM } from "../../support/offers";
import { urlencoded } from "../harness/http";
import { post, XSS_PAYLOADS, type Action, type HostileCase, type OrFn, type Vars } from "./cases";
import type { Snapshot } from "./run";

// Admin actions (issue 4) in the same table shape. Cases marked `as: "admin"` are sent with a
// signed-in administrator's session cookie; the others with none or a forged one.

/** One row of a form table: its label, the fields it posts, the status and message it must get. */
type FormRow = readonly [
  label: string,
  fields: Readonly<Record<string, string>>,
  status: number,
  message: string | RegExp,
];

/** One case per row: `${name} ${label}`, the row's fields over `base` posted to `path` as admin. */
function adminForms(
  name: string,
  path: string,
  base: OrFn<Record<string, string>>,
  rows: FormRow[],
): HostileCase[] {
  return rows.map(([label, fields, status, message]) =>
    adminPost(
      `${name} ${label}`,
      path,
      typeof base === "function"
        ? (v) => urlencoded({ ...base(v), ...fields })
        : urlencoded({ ...base, ...fields }),
      { status, message },
    ),
  );
}

/** A page read by the signed-in administrator. */
const adminGet = (name: string, path: string, expect: HostileCase["expect"]): HostileCase => ({
  name,
  path,
  as: "admin",
  expect,
});

/** A form posted by the signed-in administrator. */
const adminPost = (...[name, path, body, expect, more]: Parameters<typeof post>) =>
  post(name, path, body, expect, { as: "admin", ...more });

export const ADMIN_CREDENTIALS = {
  email: "securite@example.fr",
  password: "un mot de passe de test assez long",
};

const OFFER = {
  ...VALID_OFFER_FORM,
  title: "Serveur Hostile",
  reference: "HST-001",
  ...EMPTY_OFFER_NUMBERS,
};
type OfferFields = typeof OFFER;

const M = {
  missing: "Veuillez remplir tous les champs obligatoires",
  invalid: "Requête invalide",
  offerGone: "Cette offre n'existe plus.",
  statusInvalid: "Statut ou demande non valide.",
  contactGone: "Cette demande n'existe plus.",
  mailRetryInvalid: "Demande de relance non valide.",
  mailNotFailed: "Cet e-mail n'est plus en échec.",
  unauthorized: "Votre session a expiré ou vous n'êtes pas connecté.",
  quoteValidity: "La validité est un nombre entier de jours.",
  quoteDiscount: "Une remise est un pourcentage entre 0 et 100.",
  wrongCredentials: "Email ou mot de passe incorrect.",
  missingCredentials: "Veuillez saisir votre email et votre mot de passe.",
  resetRequested: RESET_MESSAGES.requested,
  resetEmailInvalid: "L'adresse e-mail n'est pas valide.",
  resetLinkInvalid: RESET_MESSAGES.invalidLink,
  priceInvalid: "Le prix doit être un nombre positif avec au plus 2 décimales.",
  priceTooHigh: "Le prix ne doit pas dépasser",
  typeInvalid: "Le type d'offre n'est pas valide.",
  forbidden: (label: string) => `${label} contient des caractères non autorisés.`,
  // Thousands are separated by a narrow no-break space.
  cores: /Le nombre de cœurs doit être un nombre entier entre 1 et 4\s096\./,
  ram: /La RAM doit être un nombre entier de Go entre 1 et 65\s536\./,
  storage: /Le stockage doit être un nombre de To entre 0,01 et 100\s000 \(2 décimales au plus\)\./,
  bandwidth: /La bande passante doit être un nombre de Gbit\/s entre 0,01 et 10\s000/,
  setupFee: /Les frais de mise en service doivent être un montant entre 0 et 1\s000\s000 €/,
  loaMonths: "La durée doit être un nombre entier de mois entre 1 et 120.",
  loaOption: /L'option d'achat doit être un montant entre 0 et 1\s000\s000 €/,
  loaOnly: "Réservé aux offres de type Location LOA.",
  tooLong: (label: string, max: number) => `${label} ne doit pas dépasser ${max} caractères.`,
} as const;

type Change = (before: Snapshot, after: Snapshot, v: Vars) => void;

/** Everything but the offers table is unchanged; the offers changed as `check` says. */
function offersOnly(
  check: (before: Snapshot["offers"], after: Snapshot["offers"], v: Vars) => void,
): Change {
  return (before, after, v) => {
    expect({ ...after, offers: [] }).toEqual({ ...before, offers: [] });
    check(before.offers, after.offers, v);
  };
}

/** One new offer with these stored values. */
function offerCreated(expected: Record<string, unknown>): Change {
  return offersOnly((before, after) => {
    const known = new Set(before.map((o) => o.id));
    const added = after.filter((o) => !known.has(o.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject(expected);
    expect(after.filter((o) => known.has(o.id))).toEqual(before);
  });
}

function createOffer(
  name: string,
  change: Partial<OfferFields>,
  expectation: HostileCase["expect"],
): HostileCase {
  return adminPost(
    `admin offer create: ${name}`,
    "/admin/offers/new",
    urlencoded({ intent: "create", ...OFFER, ...change }),
    expectation,
  );
}

const refusedOffer = (name: string, change: Partial<OfferFields>, message: string | RegExp) =>
  createOffer(name, change, { status: 400, message });

const storedOffer = (
  name: string,
  change: Partial<OfferFields>,
  expected: Record<string, unknown>,
) => createOffer(name, change, { status: 302, change: offerCreated(expected) });

const LABELS: [keyof typeof OFFER_LIMITS & keyof OfferFields, string][] = [
  ["title", "Le titre"],
  ["reference", "La référence"],
  ["slug", "Le slug"],
  ["description", "La description"],
  ["cpu", "Le processeur"],
  ["ram", "La mémoire RAM"],
  ["storage", "Le stockage"],
  ["network", "Le réseau"],
  ["contractType", "Le type de contrat"],
  ["metaTitle", "Le titre SEO"],
  ["metaDescription", "La description SEO"],
];

const OFFER_CASES: HostileCase[] = [
  // Every offer field has a maximum length, with a French message.
  ...LABELS.map(([field, label]) =>
    refusedOffer(
      `${field} over the limit`,
      { [field]: "a".repeat(OFFER_LIMITS[field] + 1) },
      M.tooLong(label, OFFER_LIMITS[field]),
    ),
  ),
  storedOffer(
    "title at the limit",
    { title: "T".repeat(OFFER_LIMITS.title) },
    { title: "T".repeat(OFFER_LIMITS.title) },
  ),
  // Control characters and NUL bytes.
  refusedOffer("NUL byte in the title", { title: "Serveur\u0000" }, M.forbidden("Le titre")),
  refusedOffer(
    "NUL byte in the description",
    { description: "a\u0000b" },
    M.forbidden("La description"),
  ),
  refusedOffer("escape sequence in the CPU", { cpu: "\u001b[2J" }, M.forbidden("Le processeur")),
  refusedOffer("line break in the reference", { reference: "A\nB" }, M.forbidden("La référence")),
  storedOffer(
    "description with line breaks and tabs",
    { title: "Lignes", description: "ligne 1\r\nligne 2\n\tfin" },
    { title: "Lignes", description: "ligne 1\nligne 2\n\tfin" },
  ),
  // Prices: non-numeric, negative, enormous, too precise.
  refusedOffer("price that is not a number", { price: "douze" }, M.priceInvalid),
  refusedOffer("negative price", { price: "-5" }, M.priceInvalid),
  refusedOffer("price in exponent notation", { price: "1e5" }, M.priceInvalid),
  refusedOffer("price with three decimals", { price: "1.999" }, M.priceInvalid),
  refusedOffer("enormous price", { price: "99999999999999999999" }, M.priceInvalid),
  refusedOffer("price over the cap", { price: "1000000.01" }, M.priceTooHigh),
  refusedOffer("price with SQL", { price: "1; DROP TABLE offers" }, M.priceInvalid),
  refusedOffer("missing price", { price: "" }, M.missing),
  storedOffer(
    "price written the French way",
    { title: "Prix FR", price: "1 299,5 €" },
    { price: "1299.50" },
  ),
  // Specs as numbers, setup fee, LOA terms (issue 13): bounds, shapes, LOA terms on LOA only.
  refusedOffer("cores that are not a whole number", { cpuCores: "8.5" }, M.cores),
  refusedOffer("zero cores", { cpuCores: "0" }, M.cores),
  refusedOffer("negative RAM", { ramGb: "-64" }, M.ram),
  refusedOffer("RAM with SQL", { ramGb: "64; DROP TABLE offers" }, M.ram),
  refusedOffer("RAM in exponent notation", { ramGb: "1e3" }, M.ram),
  refusedOffer("storage with three decimals", { storageTb: "1.234" }, M.storage),
  refusedOffer("enormous bandwidth", { bandwidthGbps: "99999999999999999999" }, M.bandwidth),
  refusedOffer("negative setup fee", { setupFee: "-1" }, M.setupFee),
  refusedOffer("setup fee with markup", { setupFee: "<b>49</b>" }, M.setupFee),
  refusedOffer("LOA duration on a dedicated server", { loaMonths: "36" }, M.loaOnly),
  refusedOffer("LOA duration of zero", { type: "loa", loaMonths: "0" }, M.loaMonths),
  refusedOffer("LOA duration of 100 years", { type: "loa", loaMonths: "1200" }, M.loaMonths),
  refusedOffer(
    "purchase option over the cap",
    { type: "loa", loaPurchaseOption: "1000000.01" },
    M.loaOption,
  ),
  storedOffer(
    "numbers and terms written the French way",
    {
      title: "Chiffres",
      type: "loa",
      cpuCores: " 32 ",
      ramGb: "1 024",
      storageTb: "7,68",
      bandwidthGbps: "2,5",
      setupFee: "0",
      loaMonths: "36",
      loaPurchaseOption: "1 500,5 €",
    },
    {
      cpuCores: 32,
      ramGb: 1024,
      storageTb: "7.68",
      bandwidthGbps: "2.50",
      setupFee: "0.00",
      loaMonths: 36,
      loaPurchaseOption: "1500.50",
    },
  ),
  storedOffer(
    "numbers left empty",
    { title: "Sans chiffres" },
    { cpuCores: null, ramGb: null, setupFee: null, loaMonths: null },
  ),
  // Unknown type, missing fields.
  refusedOffer("unknown type", { type: "mainframe" }, M.typeInvalid),
  refusedOffer("type with markup", { type: "<b>loa</b>" }, M.typeInvalid),
  refusedOffer("missing title", { title: "" }, M.missing),
  refusedOffer("required fields blank", { title: " ", cpu: "\u00a0", ram: "" }, M.missing),
  // Stored as typed, rendered inert (checked after the table on every page that shows them).
  storedOffer(
    "script and markup in every text field",
    {
      title: `Offre ${XSS_PAYLOADS[0]}`,
      reference: XSS_PAYLOADS[2],
      description: `${XSS_PAYLOADS[1]}\n\n[lien](javascript:alert(1))\n\n${XSS_PAYLOADS[5]}`,
      cpu: XSS_PAYLOADS[3],
      ram: XSS_PAYLOADS[4],
      metaTitle: XSS_PAYLOADS[0],
      metaDescription: XSS_PAYLOADS[1],
    },
    { title: `Offre ${XSS_PAYLOADS[0]}`, cpu: XSS_PAYLOADS[3], slug: "offre-scriptalert1script" },
  ),
  storedOffer(
    "SQL metacharacters",
    { title: "Robert'); DROP TABLE offers;--", reference: "' OR '1'='1", ram: "100% _x_ \\" },
    { title: "Robert'); DROP TABLE offers;--", reference: "' OR '1'='1", ram: "100% _x_ \\" },
  ),
  storedOffer(
    "Unicode title, slug folded to ASCII",
    { title: "Épique Serveur 🚀 山田 \u202etxt" },
    { title: "Épique Serveur 🚀 山田 \u202etxt", slug: "epique-serveur-txt" },
  ),
  storedOffer(
    "slug typed with path traversal",
    { title: "Traverse", slug: "../../etc/passwd" },
    { slug: "etcpasswd" },
  ),
  refusedOffer(
    "slug without any letter",
    { slug: "%%%" },
    "Le slug doit contenir au moins une lettre ou un chiffre.",
  ),
  // Intent and ids.
  adminPost(
    "admin offer: unknown intent",
    "/admin/offers",
    urlencoded({ intent: "drop", ...OFFER }),
    { status: 400, message: M.invalid },
  ),
  adminPost("admin offer: intent missing", "/admin/offers", urlencoded(OFFER), {
    status: 400,
    message: M.invalid,
  }),
  ...(
    [
      ["not a number", "abc", 400],
      ["negative", "-1", 400],
      ["zero", "0", 400],
      ["beyond a PostgreSQL integer", "99999999999", 400],
      ["with SQL", "1 OR 1=1", 400],
      ["unknown", "999999", 404],
    ] as const
  ).flatMap(([label, id, status]): HostileCase[] => [
    // The id is part of the editor's address: a malformed one is a page that does not exist.
    adminPost(
      `admin offer update: id ${label}`,
      `/admin/offers/${encodeURIComponent(id)}`,
      urlencoded(OFFER),
      { status: 404, message: M.offerGone },
    ),
    adminPost(
      `admin offer delete: id ${label}`,
      "/admin/offers",
      urlencoded({ intent: "delete", id }),
      { status, message: M.offerGone },
    ),
    adminPost(
      `admin offer show/hide: id ${label}`,
      "/admin/offers",
      urlencoded({ intent: "toggle", id, active: "0" }),
      { status, message: M.offerGone },
    ),
  ]),
  // Saving a copy does not need its source: the typed values are what is created.
  adminPost(
    "admin offer copy of an unknown offer",
    "/admin/offers/new?from=999999",
    urlencoded(OFFER),
    {
      status: 302,
      location: /^\/admin\/offers$/,
      change: offerCreated({ title: OFFER.title }),
    },
  ),
  adminPost(
    "admin offer save: open redirect in returnTo",
    `/admin/offers/new?returnTo=${encodeURIComponent("https://evil.example/admin/offers?page=2")}`,
    urlencoded({ ...OFFER, title: "Retour" }),
    {
      status: 302,
      location: /^\/admin\/offers$/,
      change: offerCreated({ title: "Retour" }),
    },
  ),
  adminPost(
    "admin offer preview: nothing saved, the typed markup inert",
    "/admin/offers/new",
    urlencoded({ ...OFFER, title: "", description: XSS_PAYLOADS[0], preview: "1" }),
    { status: 200 },
  ),
  adminPost(
    "admin offer show/hide: target state missing",
    "/admin/offers",
    (v) => urlencoded({ intent: "toggle", id: String(v.editableOfferId) }),
    { status: 400, message: M.offerGone },
  ),
  adminPost(
    "admin offer: the former in-page create is refused",
    "/admin/offers",
    urlencoded({ intent: "create", ...OFFER }),
    { status: 400, message: M.invalid },
  ),
  adminPost(
    "admin offer update: overlong title on an existing offer",
    (v) => `/admin/offers/${v.editableOfferId}`,
    () =>
      urlencoded({
        ...OFFER,
        title: "x".repeat(OFFER_LIMITS.title + 1),
      }),
    { status: 400, message: M.tooLong("Le titre", OFFER_LIMITS.title) },
  ),
  adminPost(
    "admin offer update: stored as typed",
    (v) => `/admin/offers/${v.editableOfferId}`,
    () =>
      urlencoded({
        ...OFFER,
        title: `Modifiée ${XSS_PAYLOADS[2]}`,
        price: "42",
      }),
    {
      status: 302,
      change: offersOnly((before, after, v) => {
        const updated = after.find((o) => o.id === v.editableOfferId);
        expect(updated).toMatchObject({ title: `Modifiée ${XSS_PAYLOADS[2]}`, price: "42.00" });
        expect(after.filter((o) => o.id !== v.editableOfferId)).toEqual(
          before.filter((o) => o.id !== v.editableOfferId),
        );
      }),
    },
  ),
  adminPost(
    "admin offer delete: an existing offer, its contact requests kept",
    "/admin/offers",
    (v) => urlencoded({ intent: "delete", id: String(v.deletableOfferId) }),
    {
      status: 302,
      change: (before, after, v) => {
        expect(after.offers.map((o) => o.id)).toEqual(
          before.offers.filter((o) => o.id !== v.deletableOfferId).map((o) => o.id),
        );
        expect(after.contactRequests).toHaveLength(before.contactRequests.length);
        expect(after.contactRequests.some((c) => c.offerId === v.deletableOfferId)).toBe(false);
        expect({ ...after, offers: [], contactRequests: [] }).toEqual({
          ...before,
          offers: [],
          contactRequests: [],
        });
      },
    },
  ),
  {
    name: "admin offer: JSON body",
    method: "POST",
    path: "/admin/offers/new",
    contentType: "application/json",
    as: "admin",
    body: JSON.stringify({ intent: "create", ...OFFER }),
    expect: {
      status: [400, 415],
      message: /Requête invalide|Format de requête non pris en charge/,
    },
  },
  adminPost(
    "admin offer: duplicated intent (first wins: delete of a forged id)",
    "/admin/offers",
    urlencoded([
      ["intent", "delete"],
      ["intent", "create"],
      ["id", "999999"],
      ...Object.entries(OFFER),
    ]),
    { status: 404, message: M.offerGone },
  ),
];

const CONTACT_STATUS_CASES: HostileCase[] = [
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

const sessionsOnly =
  (check: (before: Snapshot["sessions"], after: Snapshot["sessions"]) => void): Change =>
  (before, after) => {
    expect({ ...after, sessions: [] }).toEqual({ ...before, sessions: [] });
    check(before.sessions, after.sessions);
  };

const signIn = (
  name: string,
  fields: Record<string, string>,
  status: number,
  message: string,
): HostileCase => post(`sign-in: ${name}`, "/auth", urlencoded(fields), { status, message });

const AUTH_CASES: HostileCase[] = [
  signIn(
    "wrong password",
    { email: ADMIN_CREDENTIALS.email, password: "pas le bon mot de passe" },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "unknown e-mail",
    { email: "inconnu@example.fr", password: "x".repeat(20) },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "SQL in the e-mail",
    { email: "' OR '1'='1' --", password: "' OR '1'='1" },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "e-mail over the limit",
    { email: `${"a".repeat(AUTH_LIMITS.email)}@example.fr`, password: "x" },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "password over the limit (argon2 input capped)",
    { email: ADMIN_CREDENTIALS.email, password: "x".repeat(AUTH_LIMITS.passwordMax + 1) },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "password of 200,000 characters",
    { email: ADMIN_CREDENTIALS.email, password: "x".repeat(200_000) },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "NUL byte in the e-mail",
    { email: `${ADMIN_CREDENTIALS.email}\u0000`, password: ADMIN_CREDENTIALS.password },
    400,
    M.wrongCredentials,
  ),
  signIn("missing password", { email: ADMIN_CREDENTIALS.email }, 400, M.missingCredentials),
  signIn("missing both", {}, 400, M.missingCredentials),
  signIn(
    "script in the e-mail",
    { email: XSS_PAYLOADS[0], password: "x" },
    401,
    M.wrongCredentials,
  ),
  post(
    "sign-in: open redirect attempt, then a session",
    "/auth",
    urlencoded({ ...ADMIN_CREDENTIALS, redirectTo: "https://evil.example/admin" }),
    {
      status: 302,
      location: /^\/admin/,
      change: sessionsOnly((before, after) => expect(after).toHaveLength(before.length + 1)),
    },
  ),
  {
    name: "sign-in: JSON body",
    method: "POST",
    path: "/auth",
    contentType: "application/json",
    body: JSON.stringify(ADMIN_CREDENTIALS),
    expect: { status: [400, 415], message: /Veuillez saisir votre email|Format de requête/ },
  },
];

const resetRequest = (
  name: string,
  fields: Record<string, string>,
  status: number,
  message: string,
): HostileCase =>
  post(`password reset request: ${name}`, "/auth/mot-de-passe-oublie", urlencoded(fields), {
    status,
    message,
  });

const NEW_PASSWORD = "une phrase secrète toute neuve";
const resetLink = (name: string, fields: Record<string, string>): HostileCase =>
  post(
    `password reset link: ${name}`,
    "/auth/nouveau-mot-de-passe",
    urlencoded({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...fields }),
    { status: 410, message: M.resetLinkInvalid },
  );

/** `Mot de passe oublié ?` (issue 20): the same answer for any address, no link without a token. */
const PASSWORD_RESET_CASES: HostileCase[] = [
  resetRequest("unknown e-mail", { email: "inconnu@example.fr" }, 200, M.resetRequested),
  resetRequest("SQL in the e-mail", { email: "' OR '1'='1' --" }, 400, M.resetEmailInvalid),
  resetRequest(
    "e-mail over the limit",
    { email: `${"a".repeat(AUTH_LIMITS.email)}@example.fr` },
    400,
    M.resetEmailInvalid,
  ),
  resetRequest(
    "NUL byte in the e-mail",
    { email: `${ADMIN_CREDENTIALS.email}\u0000` },
    400,
    M.resetEmailInvalid,
  ),
  resetRequest("script in the e-mail", { email: XSS_PAYLOADS[0] }, 400, M.resetEmailInvalid),
  resetRequest("missing e-mail", {}, 400, "Veuillez saisir votre adresse e-mail."),
  {
    name: "password reset request: JSON body",
    method: "POST",
    path: "/auth/mot-de-passe-oublie",
    contentType: "application/json",
    body: JSON.stringify({ email: ADMIN_CREDENTIALS.email }),
    expect: { status: 415, message: /Format de requête/ },
  },
  resetLink("unknown token", { token: "A".repeat(43) }),
  resetLink("SQL in the token", { token: "' OR '1'='1' --" }),
  resetLink("token of 200,000 characters", { token: "A".repeat(200_000) }),
  resetLink("no token", {}),
  resetLink("password of 200,000 characters", {
    token: "A".repeat(43),
    newPassword: "x".repeat(200_000),
  }),
  {
    name: "password reset link: token in the query only, unknown",
    method: "GET",
    path: `/auth/nouveau-mot-de-passe?token=${"B".repeat(43)}`,
    expect: { status: 410, message: M.resetLinkInvalid },
  },
];

/** Writes without a valid session: refused, nothing changed. */
const UNAUTHENTICATED_CASES: HostileCase[] = [
  ...(
    [
      ["no session", []],
      [
        "forged session cookie",
        [["Cookie", "admin_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]],
      ],
      ["session cookie with SQL", [["Cookie", "admin_session=' OR '1'='1"]]],
      ["malformed cookie header", [["Cookie", "admin_session=%E0%A4%A; ;;=;"]]],
    ] as [string, [string, string][]][]
  ).flatMap(([label, headers]): HostileCase[] => [
    post(
      `admin offer create with ${label}`,
      "/admin/offers",
      urlencoded({ intent: "create", ...OFFER }),
      { status: 401, message: M.unauthorized },
      { headers },
    ),
    post(
      `admin contact status with ${label}`,
      "/admin/contacts",
      (v) => urlencoded({ id: String(v.contactId), status: "cancelled" }),
      { status: 401, message: M.unauthorized },
      { headers },
    ),
  ]),
  post(
    "sign-out with a forged session",
    "/admin/logout",
    "",
    { status: 302 },
    { headers: [["Cookie", "admin_session=forged"]] },
  ),
];

// The dashboard's retry of a failed notification e-mail: nothing may change on a bad request.
const MAIL_RETRY_CASES: HostileCase[] = [
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

const ADMIN_READ_CASES: HostileCase[] = [
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

const USER_GONE = "Cet administrateur n'existe plus.";
const ADMIN_USER_CASES: HostileCase[] = [
  ...adminForms(
    "admin users add:",
    "/admin/users",
    { intent: "add", email: "nouveau@example.fr", password: "un mot de passe correct" },
    [
      ["e-mail not valid", { email: "pas-un-email" }, 400, "L'adresse e-mail n'est pas valide."],
      ["e-mail with markup", { email: XSS_PAYLOADS[0] }, 400, "L'adresse e-mail n'est pas valide."],
      [
        "e-mail taken",
        { email: ADMIN_CREDENTIALS.email.toUpperCase() },
        409,
        "Un administrateur utilise déjà cette adresse e-mail.",
      ],
      ["password too short", { password: "court" }, 400, "au moins 12 caractères"],
      ["password enormous", { password: "x".repeat(100_000) }, 400, "ne doit pas dépasser"],
    ],
  ),
  ...adminForms("admin users remove: id", "/admin/users", { intent: "remove" }, [
    ["not a number", { id: "abc" }, 400, USER_GONE],
    ["with SQL", { id: "1 OR 1=1" }, 400, USER_GONE],
    ["beyond a PostgreSQL integer", { id: "99999999999" }, 400, USER_GONE],
    ["unknown", { id: "999999" }, 404, USER_GONE],
  ]),
  ...adminForms(
    "webhook add:",
    "/admin/webhooks",
    { intent: "create", url: "https://93.184.216.34/hook", created: "on" },
    [
      ["no address", { url: "" }, 400, "Saisissez l'adresse du webhook."],
      ["not http", { url: "javascript:alert(1)" }, 400, "https://"],
      ["credentials", { url: "https://a:b@93.184.216.34/" }, 400, "identifiant"],
      ["http", { url: "http://93.184.216.34/hook" }, 400, "doit commencer par https://"],
      ["loopback", { url: "https://127.0.0.1:4000/hook" }, 400, "réseau local ou privé"],
      ["cloud metadata", { url: "https://169.254.169.254/latest" }, 400, "réseau local ou privé"],
      ["NAT64", { url: "https://[64:ff9b::a9fe:a9fe]/latest" }, 400, "réseau local ou privé"],
      ["mapped", { url: "https://[::ffff:127.0.0.1]/hook" }, 400, "réseau local ou privé"],
      ["no event", { created: "", updated: "" }, 400, "au moins un événement"],
      ["enormous", { url: `https://example.com/${"x".repeat(100_000)}` }, 400, "au plus"],
    ],
  ),
  ...adminForms("webhook", "/admin/webhooks", {}, [
    ["resend: id abc", { intent: "resend", id: "abc" }, 400, M.invalid],
    ["delete: id 1 OR 1=1", { intent: "delete", id: "1 OR 1=1" }, 400, M.invalid],
  ]),
  adminPost(
    "admin users: unknown intent",
    "/admin/users",
    urlencoded({ intent: "promote", id: "1" }),
    { status: 400, message: M.invalid },
  ),
  {
    name: "admin users: JSON body",
    method: "POST",
    path: "/admin/users",
    contentType: "application/json",
    as: "admin",
    body: JSON.stringify({ intent: "add", email: "json@example.fr", password: "x".repeat(20) }),
    expect: { status: 415, message: "Format de requête non pris en charge" },
  },
  ...adminForms(
    "admin account password:",
    "/admin/account",
    {
      currentPassword: ADMIN_CREDENTIALS.password,
      newPassword: "un nouveau mot de passe",
      confirmPassword: "un nouveau mot de passe",
    },
    [
      [
        "wrong current password",
        { currentPassword: "pas le bon mot de passe" },
        400,
        "Le mot de passe actuel est incorrect.",
      ],
      [
        "confirmation differs",
        { confirmPassword: "autre chose encore" },
        400,
        "Les deux nouveaux mots de passe ne correspondent pas.",
      ],
      [
        "new password too short",
        { newPassword: "court", confirmPassword: "court" },
        400,
        "au moins 12 caractères",
      ],
      [
        "current password enormous",
        { currentPassword: "x".repeat(100_000) },
        400,
        "Le mot de passe actuel est incorrect.",
      ],
    ],
  ),
  { name: "administrators page without session", path: "/admin/users", expect: { status: 302 } },
  { name: "account page without session", path: "/admin/account", expect: { status: 302 } },
  adminGet("admin users: junk remove parameter", "/admin/users?remove=%3Cscript%3E&remove=1", {
    status: 200,
  }),
];

/** Personal data of one address (issue 12): odd addresses get a French 400, nothing is erased. */
const INVALID_EMAIL = "Veuillez saisir une adresse e-mail valide.";
const PERSONAL_DATA_CASES: HostileCase[] = [
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
const QUOTE_SEND_CASES: HostileCase[] = [
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

export const ADMIN_CASES: HostileCase[] = [
  ...OFFER_CASES,
  ...ADMIN_USER_CASES,
  ...CONTACT_STATUS_CASES,
  ...AUTH_CASES,
  ...PASSWORD_RESET_CASES,
  ...UNAUTHENTICATED_CASES,
  ...MAIL_RETRY_CASES,
  ...ADMIN_READ_CASES,
  ...PERSONAL_DATA_CASES,
  ...QUOTE_SEND_CASES,
];

const adminAction = (name: string, path: OrFn<string>, body: OrFn<string>): Action => ({
  name,
  path,
  as: "admin",
  body,
});

/** Every admin action, with a body it would accept from the site itself. */
export const ADMIN_ACTIONS: Action[] = [
  { name: "sign-in", path: "/auth", body: urlencoded(ADMIN_CREDENTIALS) },
  {
    name: "password reset request",
    path: "/auth/mot-de-passe-oublie",
    body: urlencoded({ email: ADMIN_CREDENTIALS.email }),
  },
  {
    name: "password reset",
    path: "/auth/nouveau-mot-de-passe",
    body: urlencoded({
      token: "A".repeat(43),
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  },
  adminAction("offer create", "/admin/offers/new", urlencoded(OFFER)),
  adminAction(
    "offer copy",
    (v) => `/admin/offers/new?from=${v.editableOfferId}`,
    urlencoded(OFFER),
  ),
  adminAction("offer update", (v) => `/admin/offers/${v.editableOfferId}`, urlencoded(OFFER)),
  adminAction("offer show/hide", "/admin/offers", (v) =>
    urlencoded({ intent: "toggle", id: String(v.editableOfferId), active: "0" }),
  ),
  adminAction("offer delete", "/admin/offers", (v) =>
    urlencoded({ intent: "delete", id: String(v.deletableOfferId) }),
  ),
  adminAction("contact status", "/admin/contacts", (v) =>
    urlencoded({ id: String(v.contactId), status: "cancelled" }),
  ),
  adminAction("mail retry", "/admin", urlencoded({ intent: "retry-mail", id: "1" })),
  // Issue 40: a message to the buyer, a stray message deleted.
  adminAction(
    "message to the buyer",
    (v) => `/admin/contacts/${v.contactId}`,
    (v) => urlencoded({ intent: "reply", subject: `Demande ${v.contactId}`, body: "Bonjour" }),
  ),
  adminAction(
    "stray message delete",
    "/admin/messages",
    urlencoded({ intent: "discard", id: "1", confirm: "yes" }),
  ),
  adminAction("follow-up cleared", "/admin/relances", (v) =>
    urlencoded({ intent: "follow-up", id: String(v.contactId), clear: "1", nextActionOn: "" }),
  ),
  adminAction(
    "reply template add",
    "/admin/modeles",
    urlencoded({ intent: "create", title: "Modèle forgé", body: "Bonjour {nom}" }),
  ),
  adminAction(
    "webhook add",
    "/admin/webhooks",
    urlencoded({ intent: "create", url: "https://93.184.216.34/hook", created: "on" }),
  ),
  // The address of the request that loadVars() creates.
  adminAction(
    "personal data erase",
    "/admin/personal-data",
    urlencoded({ intent: "erase", email: "existante@example.fr", confirm: "yes" }),
  ),
  adminAction(
    "administrator add",
    "/admin/users",
    urlencoded({
      intent: "add",
      email: "intrus@example.fr",
      password: "un mot de passe forgé",
    }),
  ),
  adminAction("administrator remove", "/admin/users", urlencoded({ intent: "remove", id: "1" })),
  adminAction(
    "password change",
    "/admin/account",
    urlencoded({
      currentPassword: ADMIN_CREDENTIALS.password,
      newPassword: "un mot de passe forgé",
      confirmPassword: "un mot de passe forgé",
    }),
  ),
  adminAction("datacenter add", "/admin/datacenters", urlencoded({ intent: "add", name: "Lyon" })),
  adminAction(
    "lease scale save",
    "/admin/lease",
    urlencoded({ c36: "0.03150", purchaseOptionPercent: "1.5" }),
  ),
  adminAction(
    "contact note",
    (v) => `/admin/contacts/${v.contactId}`,
    urlencoded({ intent: "note", body: "Note forgée" }),
  ),
  adminAction(
    "contact assign",
    (v) => `/admin/contacts/${v.contactId}`,
    urlencoded({ intent: "assign", owner: "1" }),
  ),
  adminAction("contact bulk", "/admin/contacts", (v) =>
    urlencoded({ intent: "bulk", bulk: "spam", ids: String(v.contactId) }),
  ),
  adminAction("webhook delete", "/admin/webhooks", urlencoded({ intent: "delete", id: "1" })),
  adminAction("session revoke", "/admin/account", urlencoded({ intent: "revoke", id: "1" })),
  adminAction("second factor enrol", "/admin/account/2fa", urlencoded({ code: "123456" })),
  adminAction(
    "identity confirmation",
    "/admin/confirm",
    urlencoded({ redirectTo: "/admin/contacts/export.csv", reauthPassword: "x" }),
  ),
  adminAction(
    "send quote",
    (v) => `/admin/contacts/${v.quoteContactId}/envoyer-devis`,
    urlencoded({ validity: "30", discount0: "0" }),
  ),
  adminAction("sign-out", "/admin/logout", ""),
];
