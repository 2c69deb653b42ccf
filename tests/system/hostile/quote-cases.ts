// Hostile answers on a sent quote's page (issue 29).
import { expect } from "vitest";
import { urlencoded } from "../harness/http";
import type { Snapshot } from "./run";
import { type HostileCase, M, type Vars, XSS_PAYLOADS, post } from "./case-kit";
import { big } from "./contact-cases";
import { get } from "./route-cases";

// The buyer's answers on a sent quote's page (issue 29): a bad token, a missing or oversized field,
// a foreign body are a 4xx with a French message and change nothing; the one valid acceptance stores
// the name and function exactly as typed; a second answer is refused.
const quotePage = (v: Vars) => `/devis/${v.quoteToken}`;

const ACCEPT = { intent: "accept", name: "Jeanne Martin", role: "Directrice achats", agree: "on" };

const answer = (name: string, fields: Record<string, string>, expect: HostileCase["expect"]) =>
  post(`quote answer: ${name}`, quotePage, urlencoded(fields), expect);

export const QUOTE_CASES: HostileCase[] = [
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
