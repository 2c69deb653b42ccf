// `Ma demande` (issue 42): what the buyer's link shows (reference, status, offer and configuration,
// the quote once sent, the conversation) and the message they add from it, stored as an incoming
// reply is (activity, the owner told, request.replied).
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import { contactReference } from "~/platform/contact-reference";
import { CONTACT_STATUS_LABELS } from "~/lib/domain";
import { configurationLines } from "~/lib/offer-options";
import { db, type Database } from "~/platform/db.server";
import { offerColumns, withOffer } from "~/platform/contact-columns.server";
import { hitRateLimit } from "~/platform/rate-limit.server";
import { contactRequests, offers, quotes, requestMessages } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import { messageDomainOf } from "~/features/mail/mail-settings.server";
import { followIncoming } from "~/features/conversation/incoming.server";
import { drawQuoteLink, quotePagePath, quoteState } from "~/features/quotes/quote-sending.server";
import { requestOfLink } from "./request-link.server";

/** The longest message the page takes. */
export const BUYER_MESSAGE_MAX = 5_000;
/** Messages a request takes from its page per hour: a stolen link cannot flood the team. */
const MESSAGES_PER_HOUR = 10;

export type BuyerRequestPage = Awaited<ReturnType<typeof readPage>>;

async function readPage(id: number, database: Database) {
  const [row] = await database
    .select({
      id: contactRequests.id,
      createdAt: contactRequests.createdAt,
      status: contactRequests.status,
      configuration: contactRequests.configuration,
      ...offerColumns,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(eq(contactRequests.id, id));
  if (!row) return undefined;
  const { offer } = withOffer(row);
  const [quote] = await database
    .select()
    .from(quotes)
    .where(and(eq(quotes.contactRequestId, id), isNotNull(quotes.sentAt)))
    .orderBy(desc(quotes.sentAt), desc(quotes.id))
    .limit(1);
  // The buyer's words and the team's: automatic answers and bounces are the desk's business.
  const messages = await database
    .select({
      id: requestMessages.id,
      direction: requestMessages.direction,
      body: requestMessages.body,
      createdAt: requestMessages.createdAt,
    })
    .from(requestMessages)
    .where(and(eq(requestMessages.contactRequestId, id), eq(requestMessages.kind, "message")))
    .orderBy(asc(requestMessages.createdAt), asc(requestMessages.id));
  return {
    reference: contactReference(row.id, row.createdAt),
    createdAt: row.createdAt,
    status: CONTACT_STATUS_LABELS[row.status],
    offer: offer && { title: offer.title, reference: offer.reference },
    configuration: row.configuration ? configurationLines(row.configuration) : [],
    quote: quote && {
      number: quote.number,
      sentAt: quote.sentAt!,
      validUntil: quote.validUntil,
      state: quoteState(quote),
    },
    messages,
  };
}

/** The page of a link, or undefined for a link no request has (mistyped, replaced, purged). */
export async function buyerRequestPage(
  token: string,
  database: Database = db(),
): Promise<BuyerRequestPage | undefined> {
  const id = await requestOfLink(token, database);
  return id === undefined ? undefined : readPage(id, database);
}

/**
 * The buyer's message from their page: stored in the conversation as their reply by mail is, and
 * followed the same way (incoming.server.ts: last activity, the owner told, request.replied).
 */
export async function addBuyerMessage(
  token: string,
  body: string,
  database: Database = db(),
): Promise<
  { kind: "added" } | { kind: "missing" } | { kind: "rate-limited"; retryAfterSeconds: number }
> {
  const domain = messageDomainOf(siteConfig().baseUrl);
  return database.transaction(async (tx) => {
    const id = await requestOfLink(token, tx);
    if (id === undefined) return { kind: "missing" };
    const [request] = await tx
      .select({ email: contactRequests.email, createdAt: contactRequests.createdAt })
      .from(contactRequests)
      .where(eq(contactRequests.id, id))
      .for("update");
    if (!request) return { kind: "missing" };
    const limit = await hitRateLimit(`buyer-message:${id}`, MESSAGES_PER_HOUR, 3_600_000, tx);
    if (!limit.allowed) return { kind: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };
    const [message] = await tx
      .insert(requestMessages)
      .values({
        contactRequestId: id,
        direction: "inbound",
        kind: "message",
        authorEmail: request.email.toLowerCase().slice(0, 320),
        subject: `Message depuis Ma demande ${contactReference(id, request.createdAt)}`,
        body,
        messageId: `<buyer-${randomUUID()}@${domain}>`,
      })
      .returning({ id: requestMessages.id });
    await followIncoming("message", id, message.id, tx);
    return { kind: "added" };
  });
}

/**
 * The quote's page from `Ma demande`: a new link for the open quote (it replaces the one mailed
 * with the quote), or undefined when the quote no longer takes an answer.
 */
export async function openQuoteFromRequest(
  token: string,
  database: Database = db(),
): Promise<string | undefined> {
  const id = await requestOfLink(token, database);
  if (id === undefined) return undefined;
  const [quote] = await database
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.contactRequestId, id), isNotNull(quotes.sentAt)))
    .orderBy(desc(quotes.sentAt), desc(quotes.id))
    .limit(1);
  const link = quote ? await drawQuoteLink(quote.id, database) : undefined;
  return link && quotePagePath(link.token);
}
