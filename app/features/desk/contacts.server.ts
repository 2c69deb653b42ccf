// A contact request is stored: the public form's submission (replays, spam, owner in turn,
// acknowledgement) and what its notification mail shows.
import { firstResponseDeadline } from "./first-response.server";
import { clientSubject } from "~/platform/client-address.server";
import { asc, eq, sql } from "drizzle-orm";
import type { Attribution } from "~/lib/attribution";
import type { ContactInput } from "./contact-form-schema";
import type { ContactMailData } from "./contact-mail";
import { contactReference } from "~/platform/contact-reference";
import { type ConfigurationSnapshot } from "~/lib/offer-options";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { enqueueContactNotification } from "~/features/mail/mail-outbox.server";
import { hitRateLimit, type RateLimitResult } from "~/platform/rate-limit.server";
import { offerColumns, sentColumns } from "~/platform/contact-columns.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import {
  appState,
  contactOwnerChanges,
  contactRequests,
  offers,
  users,
} from "~/platform/schema.server";
import {
  acknowledge,
  acknowledgementLimits,
  type AcknowledgementLimits,
} from "./contact-acknowledgement.server";
import { configurationSnapshot } from "./contact-configuration.server";
import { withOffer } from "~/platform/contact-columns.server";

/** A request to store: the form's fields, the company's optional (scripts, tests, the seed). */
export type ContactRequestInput = Omit<ContactInput, "company" | "siren"> &
  Partial<Pick<ContactInput, "company" | "siren">>;

/**
 * Stores a contact request and, unless it is suspected spam, the sales team's notification in the
 * outbox, in one transaction: both or neither. An offer id that matches no row is stored as null
 * (the offer may have been deleted meanwhile): the lead is never lost over it. The offer's title
 * and reference are copied too, so the request stays readable once the offer is deleted. A
 * suspected spam (the honeypot was filled) is kept but not mailed (issue 10).
 */
export async function createContactRequest(
  input: ContactRequestInput,
  database: Database = db(),
  options: {
    suspectedSpam?: boolean;
    /** The configuration's query as posted (o0=1&o2=4&duree=36); snapshotted with the offer. */
    configuration?: string;
    submissionToken?: string;
    /** Runs in the transaction once the request is known to be new; throwing stores nothing. */
    admit?: (tx: Database) => Promise<void>;
    roundRobin?: boolean;
    /** Acknowledge to the visitor, within these limits (acknowledgementLimits()). */
    acknowledge?: AcknowledgementLimits;
    /** Where the visit came from (issue 42), read from the form's address. */
    attribution?: Attribution | null;
  } = {},
): Promise<{ id: number; reference: string; replay: boolean }> {
  const offerColumn = (column: typeof offers.id | typeof offers.title | typeof offers.reference) =>
    input.offer === null
      ? null
      : sql`(select ${column} from ${offers} where ${offers.id} = ${input.offer})`;
  const suspectedSpam = options.suspectedSpam ?? false;
  return database.transaction(async (tx) => {
    const configuration =
      input.offer === null
        ? null
        : await configurationSnapshot(input.offer, options.configuration ?? "", tx);
    const insert = (submissionToken: string | undefined) =>
      tx
        .insert(contactRequests)
        .values({
          name: input.name,
          email: input.email,
          phone: input.phone,
          company: input.company ?? null,
          siren: input.siren ?? null,
          message: input.message,
          offerId: offerColumn(offers.id),
          offerTitle: offerColumn(offers.title),
          offerReference: offerColumn(offers.reference),
          configuration,
          suspectedSpam,
          submissionToken,
          firstResponseDueAt: suspectedSpam ? null : firstResponseDeadline(),
          ...options.attribution,
        })
        // The same form sent again (double click, retried post), even at the same moment: the
        // second insert waits for the first to commit, then stores nothing and mails nothing.
        .onConflictDoNothing({ target: contactRequests.submissionToken })
        .returning({ id: contactRequests.id, createdAt: contactRequests.createdAt });
    let [row] = await insert(options.submissionToken);
    if (!row) {
      const [first] = await tx
        .select({ ...sentColumns, offerId: contactRequests.offerId })
        .from(contactRequests)
        .where(eq(contactRequests.submissionToken, options.submissionToken!));
      if (sameSubmission(first, input, configuration)) {
        return {
          id: first.id,
          reference: contactReference(first.id, first.createdAt),
          replay: true,
        };
      }
      // The visitor went back, changed the form and sent it with the page's old token (a browser
      // may restore it): that is a new request, never one silently dropped.
      [row] = await insert(undefined);
    }
    await options.admit?.(tx);
    if (!suspectedSpam) {
      if (options.roundRobin) await assignInTurn(row.id, tx);
      await announceNewRequest(row.id, tx);
      if (options.acknowledge) {
        await acknowledge(row.id, input.email, options.acknowledge, tx);
      }
    }
    return { id: row.id, reference: contactReference(row.id, row.createdAt), replay: false };
  });
}

/** Whether a stored request holds what was posted again (so the post is a replay, not a new lead). */
function sameSubmission(
  stored: Pick<ContactInput, "name" | "email" | "phone" | "message" | "company" | "siren"> & {
    offerId: number | null;
    configuration: ConfigurationSnapshot | null;
  },
  input: ContactRequestInput,
  configuration: ConfigurationSnapshot | null,
): boolean {
  return (
    stored.name === input.name &&
    stored.email === input.email &&
    (stored.phone ?? null) === (input.phone ?? null) &&
    stored.company === (input.company ?? null) &&
    stored.siren === (input.siren ?? null) &&
    stored.message === input.message &&
    stored.offerId === (input.offer ?? null) &&
    // Compared by the normalised choices (the query), not the amounts read at each post.
    (stored.configuration?.query ?? null) === (configuration?.query ?? null)
  );
}

const ROUND_ROBIN_KEY = "assign_round_robin_last";

/**
 * ASSIGN_ROUND_ROBIN: the new request goes to the Commercial account after the last one served
 * (by id, wrapping round); removed accounts are simply no longer there. The turn is a row of
 * app_state locked for the transaction, so that two instances never serve the same turn twice.
 */
async function assignInTurn(id: number, tx: Database): Promise<void> {
  await tx
    .insert(appState)
    .values({ key: ROUND_ROBIN_KEY, value: "0" })
    .onConflictDoNothing({ target: appState.key });
  const [turn] = await tx
    .select({ value: appState.value })
    .from(appState)
    .where(eq(appState.key, ROUND_ROBIN_KEY))
    .for("update");
  const last = Number(turn?.value) || 0;
  const [next] = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, "sales"))
    .orderBy(sql`${users.id} <= ${last}`, asc(users.id))
    .limit(1);
  if (!next) return;
  await tx
    .update(appState)
    .set({ value: String(next.id), updatedAt: sql`now()` })
    .where(eq(appState.key, ROUND_ROBIN_KEY));
  await tx.update(contactRequests).set({ ownerId: next.id }).where(eq(contactRequests.id, id));
  await tx.insert(contactOwnerChanges).values({
    contactRequestId: id,
    fromOwnerEmail: null,
    toOwnerEmail: next.email,
    authorId: null,
    authorEmail: null,
  });
}

/** A request that joins the team's list: the team's mail and the `request.created` webhooks. */
export async function announceNewRequest(id: number, tx: Database): Promise<void> {
  await enqueueContactNotification(id, tx);
  await enqueueWebhookEvent("request.created", id, tx);
}

/** What a visitor's contact post comes to; the route turns it into a status and a message. */
export type ContactSubmission =
  | { kind: "sent"; reference: string }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

/**
 * A visitor's valid contact request: stored with its notification queued, and counted against the
 * per-IP limit (in the database, so every instance shares it) in the same transaction. A filled honeypot is probably a
 * robot, but may be a browser's autofill: the request is kept as suspected spam, not mailed, and
 * the visitor is told the same as a person. A form sent again with the same token (double click,
 * retried post, even at the same moment) is `sent`, stored once, counted once. Any database error
 * is logged and `unavailable`.
 */
export async function submitContactRequest(
  input: ContactInput,
  submission: {
    honeypot: string;
    token?: string;
    configuration?: string;
    attribution?: Attribution | null;
  },
  context: { clientIp: string; requestId: string },
): Promise<ContactSubmission> {
  const { CONTACT_RATE_LIMIT, CONTACT_RATE_WINDOW_SECONDS } = env();
  let refused: RateLimitResult | undefined;
  try {
    const suspectedSpam = submission.honeypot !== "";
    const row = await createContactRequest(input, undefined, {
      suspectedSpam,
      configuration: submission.configuration,
      submissionToken: submission.token,
      attribution: submission.attribution,
      roundRobin: env().ASSIGN_ROUND_ROBIN,
      acknowledge: acknowledgementLimits(),
      // Counted only when new: a replay does not use up the visitor's limit.
      async admit(tx) {
        const limit = await hitRateLimit(
          `contact:${clientSubject(context.clientIp)}`,
          CONTACT_RATE_LIMIT,
          CONTACT_RATE_WINDOW_SECONDS * 1000,
          tx,
        );
        if (limit.allowed) return;
        refused = limit;
        throw new Error("contact rate limit reached");
      },
    });
    log.info(
      row.replay
        ? "contact request already stored"
        : suspectedSpam
          ? "contact request stored as suspected spam"
          : "contact request stored",
      { requestId: context.requestId, contactId: row.id },
    );
    return { kind: "sent", reference: row.reference };
  } catch (error) {
    if (refused) {
      log.warn("contact rate limit reached", {
        requestId: context.requestId,
        count: refused.count,
      });
      return { kind: "rate-limited", retryAfterSeconds: refused.retryAfterSeconds };
    }
    log.error("contact request failed", { requestId: context.requestId, error });
    return { kind: "unavailable" };
  }
}

/** The request as the notification shows it: the offer as it is now, or its snapshot if deleted. */
export async function contactMailData(
  contactRequestId: number,
  database: Database = db(),
): Promise<ContactMailData | null> {
  const [row] = await database
    .select({ ...sentColumns, ...offerColumns, currentPrice: offers.price })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    .where(eq(contactRequests.id, contactRequestId));
  if (!row) return null;
  const { offerId: _, currentPrice, ...sent } = row;
  const { offer, ...request } = withOffer(sent);
  return {
    ...request,
    offer: offer && {
      title: offer.title,
      reference: offer.reference,
      price: offer.deleted ? null : currentPrice,
    },
  };
}
