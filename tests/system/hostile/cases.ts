// The public site's hostile cases, assembled (contact-cases.ts, route-cases.ts, quote-cases.ts,
// made of case-kit.ts), its actions, and the cross-site posts every action must refuse.
import { urlencoded } from "../harness/http";
import { type Action, type HostileCase, post } from "./case-kit";
import { CONTACT_CASES, VALID } from "./contact-cases";
import { QUOTE_CASES } from "./quote-cases";
import { ROUTE_CASES } from "./route-cases";

export const PUBLIC_CASES: HostileCase[] = [...CONTACT_CASES, ...ROUTE_CASES, ...QUOTE_CASES];

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
  // Saved searches (issue 42): the filtered listing's form and its mails' links.
  {
    name: "saved search",
    path: "/recherches?q=epyc",
    body: urlencoded({ email: "cible@example.fr" }),
  },
  {
    name: "saved search confirmation",
    path: "/recherches/confirmer",
    body: urlencoded({ jeton: "x" }),
  },
  {
    name: "saved search unsubscription",
    path: "/recherches/desinscription",
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
  // `Ma demande` (issue 42): the buyer's message, and the link asked again.
  {
    name: "buyer request message",
    path: (v) => `/ma-demande/${v.requestToken}`,
    body: urlencoded({ message: "Une question sur la livraison" }),
  },
  {
    name: "request link ask",
    path: "/ma-demande",
    body: urlencoded({ reference: "DEM-2026-00001", email: "existante@example.fr" }),
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

export * from "./case-kit";
