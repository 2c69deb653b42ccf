// Hostile input on the offer editor: lengths, characters, prices, specs, intents and ids.
import { expect } from "vitest";
import { OFFER_LIMITS } from "../../../app/lib/limits";
import { EMPTY_OFFER_NUMBERS, VALID_OFFER_FORM } from "../../support/offers";
import { urlencoded } from "../harness/http";
import { XSS_PAYLOADS, type HostileCase, type Vars } from "./cases";
import type { Snapshot } from "./run";
import { type Change, M, adminPost } from "./admin-forms";

export const OFFER = {
  ...VALID_OFFER_FORM,
  title: "Serveur Hostile",
  reference: "HST-001",
  ...EMPTY_OFFER_NUMBERS,
};

type OfferFields = typeof OFFER;

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

export const OFFER_CASES: HostileCase[] = [
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
