import { randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { ContactStatus } from "~/lib/domain";
import type { Seller } from "~/lib/quote";
import {
  quoteRowLabels,
  QUOTE_REMINDER_DAYS,
  type QuoteState,
  type SentQuoteTerms,
} from "~/lib/quote";
import type { WebhookQuoteData } from "~/features/webhooks/webhooks";
import { now } from "~/platform/clock.server";
import { db, type Database } from "~/platform/db.server";
import { MAIL_KINDS, notifyMailWorkers, type MailKind } from "~/features/mail/mail-outbox.server";
import { quotePdf } from "./quote-pdf.server";
import {
  latestQuote,
  lockedRequest,
  nextQuoteNumber,
  quoteRowDocument,
  requestSource,
} from "./quotes.server";
import {
  contactRequests,
  contactStatusChanges,
  mailOutbox,
  quotes,
  type Quote,
} from "~/platform/schema.server";
import { hashSessionToken, isWellFormedToken } from "~/features/accounts/sessions.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";

// Issue 29: the numbered quote sent from a request's page, answered by the buyer on its own page
// (a link whose token only the mail holds), with the request's status following.

const FIRST_ANSWER = sql`coalesce(${contactRequests.firstAnsweredAt}, now())`;

export type { QuoteState };

export function quoteState(
  quote: Pick<Quote, "sentAt" | "acceptedAt" | "declinedAt" | "replacedAt" | "validUntil">,
  at = now(),
): QuoteState {
  if (!quote.sentAt) return "draft";
  if (quote.acceptedAt) return "accepted";
  if (quote.declinedAt) return "declined";
  if (quote.replacedAt) return "replaced";
  if (quote.validUntil && quote.validUntil <= at) return "expired";
  return "open";
}

/** What the send form shows: the rows a discount applies to, and the quote already sent. */
export async function quoteDraft(id: number, database: Database = db()) {
  return database.transaction(async (tx) => {
    const request = await lockedRequest(id, tx);
    if (!request) return { kind: "missing" } as const;
    const source = await requestSource(request, tx);
    if (!source) return { kind: "no-offer" } as const;
    const current = await latestQuote(id, tx);
    return {
      kind: "draft",
      rows: quoteRowLabels(source),
      customer: { name: request.name, company: request.company, siren: request.siren },
      current: current && {
        number: current.number,
        sentAt: current.sentAt,
        validUntil: current.validUntil,
        state: quoteState(current),
      },
    } as const;
  });
}

export type QuoteSending =
  | { kind: "sent"; number: string; replaced: string | null }
  | { kind: "missing" }
  | { kind: "no-offer" }
  /** The current quote is accepted: a signed order, which a new quote does not replace. */
  | { kind: "signed"; number: string };

/** A status change by the quote's flow, with its history line. */
export async function moveStatus(
  tx: Database,
  id: number,
  from: ContactStatus,
  to: ContactStatus,
  author: { id: number | null; email: string },
) {
  if (from !== to) {
    await tx.insert(contactStatusChanges).values({
      contactRequestId: id,
      fromStatus: from,
      toStatus: to,
      authorId: author.id,
      authorEmail: author.email,
    });
  }
  await tx
    .update(contactRequests)
    .set({ status: to, firstAnsweredAt: FIRST_ANSWER, updatedAt: sql`now()` })
    .where(eq(contactRequests.id, id));
}

export async function enqueueQuoteMail(
  tx: Database,
  quote: { id: number; contactRequestId: number },
  kind: MailKind,
) {
  await tx
    .insert(mailOutbox)
    .values({ contactRequestId: quote.contactRequestId, quoteId: quote.id, kind });
  await notifyMailWorkers(tx);
}

/** The quote as the `quote.*` webhooks carry it. */
export function webhookQuote(quote: Quote): WebhookQuoteData {
  const document = quoteRowDocument(quote, { name: "", email: "" });
  const total = document.totals[0]?.value ?? "";
  return {
    number: quote.number,
    sentAt: (quote.sentAt ?? quote.issuedAt).toISOString(),
    validUntil: (quote.validUntil ?? quote.issuedAt).toISOString(),
    totalHt: total,
    ...(quote.acceptedAt && quote.acceptance
      ? {
          acceptedBy: {
            name: quote.acceptance.name,
            role: quote.acceptance.role,
            at: quote.acceptedAt.toISOString(),
            pdfSha256: quote.acceptance.pdfSha256,
          },
        }
      : {}),
    ...(quote.declinedAt
      ? { declined: { at: quote.declinedAt.toISOString(), reason: quote.declineReason } }
      : {}),
  };
}

/**
 * `Envoyer le devis`: the request's quote, numbered, with the buyer as the request names them, the
 * validity and the discounts, queued to the requester's mailbox (the PDF attached, the personal
 * link drawn when the mail leaves) in one transaction with the status `Devis envoyé`, its history
 * line and the `quote.sent` webhooks. The latest quote if never sent, else a new number: the
 * previous quote is then replaced (its link says so), unless the buyer accepted it (a signed
 * order: refused). The request is locked first, then its quote, as the buyer's answer does.
 */
export async function sendQuote(
  id: number,
  input: { validityDays: number; discounts: number[] },
  actor: AdminUser,
  database: Database = db(),
): Promise<QuoteSending> {
  return database.transaction(async (tx) => {
    const request = await lockedRequest(id, tx);
    if (!request) return { kind: "missing" };
    const source = await requestSource(request, tx);
    if (!source) return { kind: "no-offer" };
    const sentAt = now();
    const terms: SentQuoteTerms = {
      customer: {
        name: request.name,
        email: request.email,
        company: request.company,
        siren: request.siren,
      },
      discounts: input.discounts.slice(0, quoteRowLabels(source).length),
      validityDays: input.validityDays,
    };
    const sending = {
      sentAt,
      sentById: actor.id,
      validUntil: new Date(sentAt.getTime() + input.validityDays * 24 * 3600 * 1000),
      terms,
      content: source,
      issuedAt: sentAt,
    };
    const previous = await latestQuote(id, tx);
    if (previous?.acceptedAt) return { kind: "signed", number: previous.number };
    let quote: Quote;
    let replaced: string | null = null;
    if (previous && !previous.sentAt) {
      [quote] = await tx.update(quotes).set(sending).where(eq(quotes.id, previous.id)).returning();
    } else {
      if (previous) {
        await tx
          .update(quotes)
          .set({ replacedAt: sql`now()` })
          .where(and(eq(quotes.contactRequestId, id), isNull(quotes.replacedAt)));
        replaced = previous.number;
      }
      [quote] = await tx
        .insert(quotes)
        .values({
          contactRequestId: id,
          number: await nextQuoteNumber(tx, sentAt),
          ...sending,
        })
        .returning();
    }
    await moveStatus(tx, id, request.status, "quote_sent", actor);
    await enqueueQuoteMail(tx, quote, MAIL_KINDS.quoteSent);
    await enqueueWebhookEvent("quote.sent", id, tx, { quote: webhookQuote(quote) });
    return { kind: "sent", number: quote.number, replaced };
  });
}

/**
 * The quote's PDF as the buyer sees it before answering: the same bytes for the same quote and
 * seller (the configured one unless given).
 */
export function buyerPdf(
  quote: Quote,
  options: { withAcceptance?: boolean; seller?: Seller } = {},
) {
  const document = quoteRowDocument(
    quote,
    quote.terms?.customer ?? { name: "", email: "" },
    options,
  );
  return quotePdf(document, quote.sentAt ?? quote.issuedAt).then((pdf) => ({ pdf, document }));
}

/** The path of a quote's page for the buyer. */
export const quotePagePath = (token: string) => `/devis/${token}`;

/**
 * The link of a sent quote's mail, drawn as the mail leaves: only its hash is stored (as the
 * password reset's), so the database never holds a usable link. Undefined when the quote was
 * answered, replaced or expired meanwhile.
 */
export async function drawQuoteLink(
  quoteId: number,
  database: Database = db(),
): Promise<{ token: string; quote: Quote } | undefined> {
  const token = randomBytes(32).toString("base64url");
  const [quote] = await database
    .update(quotes)
    .set({ tokenHash: hashSessionToken(token) })
    .where(
      and(
        eq(quotes.id, quoteId),
        isNotNull(quotes.sentAt),
        isNull(quotes.replacedAt),
        isNull(quotes.acceptedAt),
        isNull(quotes.declinedAt),
        gt(quotes.validUntil, now()),
      ),
    )
    .returning();
  return quote && { token, quote };
}

/** A quote by the token of its link; undefined for a token no quote has. */
export async function quoteByToken(
  token: string,
  database: Database = db(),
): Promise<Quote | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const [quote] = await database
    .select()
    .from(quotes)
    .where(eq(quotes.tokenHash, hashSessionToken(token)));
  return quote;
}

/** A quote by its id (the mails about it). */
export async function quoteById(id: number, database: Database = db()) {
  const [quote] = await database.select().from(quotes).where(eq(quotes.id, id));
  return quote;
}

/**
 * The owners' reminders of the sent quotes still unanswered three days before they expire, queued
 * once each (reminder_queued_at, set in the same statement that picks them: two instances never
 * queue the same one). Returns how many.
 */
export async function queueQuoteReminders(
  at: Date = now(),
  database: Database = db(),
): Promise<number> {
  return database.transaction(async (tx) => {
    const due = await tx
      .update(quotes)
      .set({ reminderQueuedAt: at })
      .where(
        and(
          isNotNull(quotes.sentAt),
          isNull(quotes.acceptedAt),
          isNull(quotes.declinedAt),
          isNull(quotes.replacedAt),
          isNull(quotes.reminderQueuedAt),
          gt(quotes.validUntil, at),
          lte(quotes.validUntil, new Date(at.getTime() + QUOTE_REMINDER_DAYS * 86_400_000)),
        ),
      )
      .returning({ id: quotes.id, contactRequestId: quotes.contactRequestId });
    for (const quote of due) {
      await tx.insert(mailOutbox).values({
        contactRequestId: quote.contactRequestId,
        quoteId: quote.id,
        kind: MAIL_KINDS.quoteReminder,
      });
    }
    if (due.length) await notifyMailWorkers(tx);
    return due.length;
  });
}

/**
 * The buyer's first opening of a sent quote still open (issue 40): recorded once, and its owner
 * (or the team) told once, in the statement that records it. Returns whether this was the first.
 */
export async function recordQuoteOpened(
  quoteId: number,
  at: Date = now(),
  database: Database = db(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const [opened] = await tx
      .update(quotes)
      .set({ openedAt: at })
      .where(
        and(
          eq(quotes.id, quoteId),
          isNull(quotes.openedAt),
          isNotNull(quotes.sentAt),
          isNull(quotes.acceptedAt),
          isNull(quotes.declinedAt),
          isNull(quotes.replacedAt),
        ),
      )
      .returning({ id: quotes.id, contactRequestId: quotes.contactRequestId });
    if (!opened) return false;
    await tx.insert(mailOutbox).values({
      contactRequestId: opened.contactRequestId,
      quoteId: opened.id,
      kind: MAIL_KINDS.quoteOpened,
    });
    await notifyMailWorkers(tx);
    return true;
  });
}
