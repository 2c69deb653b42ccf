import { asc, eq } from "drizzle-orm";
import { hashPassword } from "../../app/features/accounts/password.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { saveLeaseScale } from "../../app/features/offers/lease.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import type { Database } from "../../app/platform/db.server";
import {
  contactRequests,
  leaseDocumentKinds,
  quotes,
  users,
} from "../../app/platform/schema.server";
import * as quoteRoute from "../../app/routes/public/quote";
import { call, sessionCookieFor, testContext } from "./admin";
import { pdfBytes } from "./lease-documents";
import { buildOffer, insertOffers } from "./offers";

// An LOA file as the buyer leaves it complete (issue 41), for the tests of what follows: the
// scale, a financed LOA offer, the request with its SIREN, the quote sent and accepted, and each
// listed document posted as a browser posts it to the quote's page.

/** Where the integration tests post: the site's address (SITE_URL in their vi.hoisted). */
export const SITE = "http://www.example.fr";

/** 13 000 € HT financed over 36 months at 0,03150: 409,50 € HT a month, option 1,5 % = 195 €. */
export const LEASE = {
  financed: "13000.00",
  months: 36,
  coefficient: "0.03150",
  rent: "409.50",
  option: "195.00",
} as const;

export const BUYER = {
  name: "Jeanne Achat",
  email: "jeanne@example.fr",
  company: "ACME SAS",
  siren: "732829320",
} as const;

/** Posts files for one document of the file, multipart, as the quote's page does. */
export function uploadDocument(
  token: string,
  kind: number,
  files: { name: string; data: Buffer; type?: string }[],
) {
  const form = new FormData();
  form.set("intent", "documents");
  form.set("kind", String(kind));
  for (const file of files) {
    form.append(
      "document",
      new Blob([new Uint8Array(file.data)], { type: file.type ?? "application/pdf" }),
      file.name,
    );
  }
  const request = new Request(`${SITE}/devis/${token}`, {
    method: "POST",
    headers: { origin: SITE },
    body: form,
  });
  return call(quoteRoute.action, request, testContext, { token });
}

/** An account of `role` with a live session cookie (the roles' tests). */
export async function accountWithRole(
  database: Database,
  role: "admin" | "sales" | "catalogue",
  email = `${role}@example.fr`,
) {
  const passwordHash = await hashPassword("un mot de passe de test assez long");
  const [user] = await database.insert(users).values({ email, passwordHash, role }).returning();
  return { user, cookie: await sessionCookieFor(user.id, database) };
}

/**
 * A complete LOA file: the request (status `Dossier complet`), the accepted quote's link, and
 * the documents listed, one PDF each (`<kind title>` in its bytes).
 */
export async function completeLeaseFile(
  database: Database,
  actor: { id: number; email: string; role: "admin" | "sales" },
) {
  const scale = {
    rates: [{ months: LEASE.months, coefficient: LEASE.coefficient }],
    purchaseOptionPercent: "1.50",
  };
  const saved = await saveLeaseScale(scale, database);
  if (saved.kind !== "saved") throw new Error("lease scale refused");
  const [{ id: offerId }] = await insertOffers(database, [
    buildOffer(1, {
      title: "LOA Xeon 36 mois",
      reference: "LOA-36",
      type: "loa",
      price: LEASE.rent,
      financedAmount: LEASE.financed,
      leaseDurations: [LEASE.months],
      loaMonths: LEASE.months,
      loaPurchaseOption: LEASE.option,
      pricedMonths: LEASE.months,
    }),
  ]);
  const { id: requestId } = await createContactRequest(
    { ...BUYER, phone: null, message: "Une LOA", offer: offerId },
    database,
  );
  const sent = await sendQuote(requestId, { validityDays: 30, discounts: [] }, actor, database);
  if (sent.kind !== "sent") throw new Error(`quote not sent: ${sent.kind}`);
  const [quote] = await database.select().from(quotes).where(eq(quotes.number, sent.number));
  const token = (await drawQuoteLink(quote.id, database))!.token;
  const accepted = await answerQuote(
    token,
    { kind: "accept", name: BUYER.name, role: "Gérante" },
    { ip: "203.0.113.7", userAgent: "Vitest" },
    database,
  );
  if (accepted.kind !== "accepted") throw new Error(`quote not accepted: ${accepted.kind}`);
  const kinds = await database
    .select({ id: leaseDocumentKinds.id, title: leaseDocumentKinds.title })
    .from(leaseDocumentKinds)
    .orderBy(asc(leaseDocumentKinds.position), asc(leaseDocumentKinds.id));
  const documents = kinds.map((kind) => ({
    kind,
    name: `${kind.id}.pdf`,
    data: pdfBytes(kind.title),
  }));
  for (const document of documents) {
    const posted = await uploadDocument(token, document.kind.id, [document]);
    if (posted.status !== 303) throw new Error(`upload refused: ${JSON.stringify(posted.data)}`);
  }
  const [{ status }] = await database
    .select({ status: contactRequests.status })
    .from(contactRequests)
    .where(eq(contactRequests.id, requestId));
  if (status !== "file_complete") throw new Error(`file not complete: ${status}`);
  return { requestId, token, quote, kinds, documents, number: sent.number };
}
