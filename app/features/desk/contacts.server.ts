import { createHash } from "node:crypto";
import { clientSubject } from "~/platform/client-address.server";
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource, SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { ContactInput } from "~/lib/contact";
import { vatNumberOf } from "~/lib/siren";

/** A request to store: the form's fields, the company's optional (scripts, tests, the seed). */
export type ContactRequestInput = Omit<ContactInput, "company" | "siren"> &
  Partial<Pick<ContactInput, "company" | "siren">>;
import type { ContactMailData } from "~/lib/contact-mail";
import {
  CONTACT_PAGE_SIZE,
  sortParts,
  SPAM_FILTER,
  type ContactListFilters,
  type ContactSort,
} from "~/lib/contact-filters";
import { contactReference } from "~/lib/contact-reference";
import { csvLine, CSV_BOM, spreadsheetDateTime } from "~/lib/csv";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { mailboxKey } from "~/lib/mailbox";
import { likePattern } from "~/lib/offer-filters";
import {
  configurationLines,
  configure,
  readSelection,
  selectionParams,
  type ConfigurationSnapshot,
} from "~/lib/offer-options";
import { requestOffer, type RequestOfferColumns } from "~/lib/request-offer";
import { LEASE_PARAM } from "~/lib/lease";
import { centsText } from "~/lib/money";
import { db, type Database } from "~/platform/db.server";
import { leaseTerms } from "~/features/offers/lease.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { enqueueContactNotification, MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { hitRateLimit, type RateLimitResult } from "~/platform/rate-limit.server";
import { offerColumns, sentColumns } from "./contact-columns.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import {
  appState,
  contactNotes,
  contactOwnerChanges,
  contactRequestCounts,
  contactRequests,
  contactStatusChanges,
  offers,
  quotes,
  users,
  type mailOutbox,
} from "~/platform/schema.server";
import { OWNER_ROLES, type AdminUser } from "~/features/accounts/users.server";

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

/** At most one acknowledgement per mailbox in this window: the form must not mail strangers. */
export const ACK_WINDOW_MS = 10 * 60 * 1000;
const ACK_SITE_WINDOW_MS = 60 * 60 * 1000;
/** The site-wide hourly count of acknowledgements (ACK_MAIL_MAX_PER_HOUR). */
export const ACK_SITE_KEY = "ack-site";

export type AcknowledgementLimits = { maxPerHour: number };

/** The rate_limits key of a mailbox: hashed, so no address sits in a table erasure does not reach. */
export function acknowledgementKey(email: string): string {
  return `ack:${createHash("sha256").update(mailboxKey(email)).digest("base64url")}`;
}

/**
 * Queues the visitor's acknowledgement unless their mailbox (case and +tag folded) had one in the
 * last 10 minutes or the site sent `maxPerHour` this hour. The mailbox is counted first, so
 * requests to one mailbox never use up the site's allowance. The counters are rate_limits rows
 * written in the request's transaction: two requests at once queue one mail, and a rolled-back
 * request counts nothing. A request not acknowledged is still stored and notified to the team.
 */
async function acknowledge(
  id: number,
  email: string,
  limits: AcknowledgementLimits,
  tx: Database,
): Promise<void> {
  const mailbox = await hitRateLimit(acknowledgementKey(email), 1, ACK_WINDOW_MS, tx);
  if (!mailbox.allowed) return;
  const site = await hitRateLimit(ACK_SITE_KEY, limits.maxPerHour, ACK_SITE_WINDOW_MS, tx);
  if (!site.allowed) {
    // Once per window: a flood past the cap must not flood the log too.
    if (site.count === limits.maxPerHour + 1) {
      log.warn("acknowledgement cap reached; requests are stored but not acknowledged", {
        maxPerHour: limits.maxPerHour,
        retryAfterSeconds: site.retryAfterSeconds,
      });
    }
    return;
  }
  await enqueueContactNotification(id, tx, MAIL_KINDS.contactAcknowledgement);
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
async function announceNewRequest(id: number, tx: Database): Promise<void> {
  await enqueueContactNotification(id, tx);
  await enqueueWebhookEvent("request.created", id, tx);
}

/** ACK_EMAIL, on by default when SMTP_URL is set (issue 22). */
export function acknowledgementsEnabled(): boolean {
  const e = env();
  return e.ACK_EMAIL ?? Boolean(e.SMTP_URL);
}

/** The limits acknowledgements are sent within, or undefined when they are off. */
export function acknowledgementLimits(): AcknowledgementLimits | undefined {
  return acknowledgementsEnabled() ? { maxPerHour: env().ACK_MAIL_MAX_PER_HOUR } : undefined;
}

/** The offer's columns a configuration is priced from. */
export const configurationColumns = {
  price: offers.price,
  setupFee: offers.setupFee,
  options: offers.options,
  type: offers.type,
  financedAmount: offers.financedAmount,
  leaseDurations: offers.leaseDurations,
  loaMonths: offers.loaMonths,
};

type ConfigurableOffer = {
  [K in keyof typeof configurationColumns]: (typeof configurationColumns)[K]["_"]["data"] | null;
} & { type: "dedicated" | "loa"; price: string };

/**
 * The snapshot of an offer's configuration as chosen by `query` (offer-options.ts): null when the
 * offer has no options or is gone. Prices are the offer's at this moment.
 */
export async function configurationSnapshot(
  offerId: number,
  query: string,
  database: Database = db(),
): Promise<ConfigurationSnapshot | null> {
  const [offer] = await database
    .select(configurationColumns)
    .from(offers)
    .where(eq(offers.id, offerId));
  if (!offer) return null;
  return configurationOf(offer, new URLSearchParams(query), database);
}

/**
 * An offer's configuration as `params` choose it (the offer page's, the contact form's, the
 * quote's): null when the offer has neither options nor a simulated lease.
 */
export async function configurationOf(
  offer: ConfigurableOffer,
  params: URLSearchParams,
  database: Database = db(),
): Promise<ConfigurationSnapshot | null> {
  const lease = await leaseTerms(offer, params, database);
  const groups = offer.options ?? [];
  if (!groups.length && !lease) return null;
  const selection = readSelection(groups, params);
  // With a lease the monthly price is the rent of the chosen duration (as on the offer page).
  const base = lease ? { ...offer, price: centsText(lease.quote.monthly) } : offer;
  const configuration = configure(base, groups, selection);
  const chosen = selectionParams(groups, selection);
  if (lease) chosen.set(LEASE_PARAM, String(lease.quote.months));
  return {
    ...configuration,
    query: chosen.toString(),
    lease: lease && {
      months: lease.quote.months,
      option: lease.quote.option,
      total: configuration.monthly * lease.quote.months + lease.quote.option,
    },
  };
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
  submission: { honeypot: string; token?: string; configuration?: string },
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

/** Per-status counts of contact requests, read from the counters the triggers keep (migration 0003). */
export async function contactStatusCounts(database: Database = db()) {
  const rows = await database.select().from(contactRequestCounts);
  const byKey = new Map(rows.map((r) => [r.key, r.count]));
  const status = Object.fromEntries(
    CONTACT_STATUSES.map((s) => [s, byKey.get(`status:${s}`) ?? 0]),
  ) as Record<ContactStatus, number>;
  return {
    ...status,
    // Suspected spam is counted apart: it is in no total until an administrator clears it.
    total: CONTACT_STATUSES.reduce((sum, s) => sum + status[s], 0),
    spam: byKey.get("spam") ?? 0,
  };
}

/** Dashboard counts: exact, a few rows read whatever the number of requests. */
export async function contactRequestStats(database: Database = db()) {
  const counts = await contactStatusCounts(database);
  return {
    total: counts.total,
    pending: counts.pending,
    inProgress: counts.in_progress,
    completed: counts.completed,
  };
}

// The administrator's side: list, request page, changes, export.

/** Characters of a message shown on a list card (the request's page shows all of it). */
export const MESSAGE_PREVIEW_LENGTH = 140;

/** A list view as the server reads it: the URL's filters and who looks (for `owner=me`). */
export type ContactQuery = ContactListFilters & { viewerId?: number };

/**
 * The rows a list view shows: spam or not, one status, one owner (the viewer's or none), a search
 * across the request's fields.
 */
function listConditions(filters: ContactQuery): SQL | undefined {
  const spam = filters.status === SPAM_FILTER;
  const conditions: SQL[] = [eq(contactRequests.suspectedSpam, spam)];
  if (filters.owner === "none") conditions.push(isNull(contactRequests.ownerId));
  if (filters.owner === "me") {
    conditions.push(
      filters.viewerId === undefined ? sql`false` : eq(contactRequests.ownerId, filters.viewerId),
    );
  }
  if (filters.status && filters.status !== SPAM_FILTER) {
    conditions.push(eq(contactRequests.status, filters.status));
  }
  if (filters.q) {
    // search_text holds name, e-mail, phone, message and offer reference, lower-cased and
    // trigram-indexed (schema.server.ts); the user's text is a bound, escaped parameter.
    conditions.push(sql`${contactRequests.searchText} like lower(${likePattern(filters.q)})`);
  }
  return and(...conditions);
}

function listOrder(sort: ContactSort) {
  const { column, descending } = sortParts(sort);
  const by = descending ? desc : asc;
  const key = {
    date: contactRequests.createdAt,
    name: sql`lower(${contactRequests.name})`,
    // The offer as sent (its snapshot): no join to sort 100,000 rows.
    offer: sql`lower(coalesce(${contactRequests.offerTitle}, ''))`,
    status: contactRequests.status,
    // The owner's rank among the accounts by e-mail: the few accounts are ranked once (an
    // InitPlan), not looked up for each of 100,000 requests (10× faster at that size).
    owner: sql`array_position((select array_agg(${users.id} order by lower(${users.email})) from ${users}), ${contactRequests.ownerId})`,
    activity: contactRequests.updatedAt,
  }[column];
  return [by(key), by(contactRequests.id)];
}

/** The export's order: by date, the one its keyset reading follows (other sorts read as newest). */
function exportOrder(sort: ContactSort) {
  return sort === "oldest"
    ? [asc(contactRequests.createdAt), asc(contactRequests.id)]
    : [desc(contactRequests.createdAt), desc(contactRequests.id)];
}

/** The offer as it is now, or its snapshot once deleted, or null for a general request. */
function withOffer<T extends RequestOfferColumns>(row: T) {
  const { currentTitle, currentReference, snapshotTitle, snapshotReference, ...rest } = row;
  return {
    ...rest,
    offer: requestOffer({ currentTitle, currentReference, snapshotTitle, snapshotReference }),
  };
}

/** Count of a view: the counters table when there is no search (exact, a few rows read). */
async function countMatches(filters: ContactQuery, database: Database): Promise<number> {
  if (!filters.q && !filters.owner) {
    const counts = await contactStatusCounts(database);
    if (filters.status === SPAM_FILTER) return counts.spam;
    return filters.status ? counts[filters.status] : counts.total;
  }
  const [{ total }] = await database
    .select({ total: count() })
    .from(contactRequests)
    .where(listConditions(filters));
  return total;
}

/** One page of the admin list, with the number of matches. Long messages are cut by the database. */
export async function listContactRequests(
  filters: ContactQuery,
  page = 1,
  database: Database = db(),
) {
  const total = await countMatches(filters, database);
  const rows =
    total === 0
      ? []
      : await database
          .select({
            id: contactRequests.id,
            name: contactRequests.name,
            email: contactRequests.email,
            phone: contactRequests.phone,
            message: sql<string>`left(${contactRequests.message}, ${MESSAGE_PREVIEW_LENGTH})`,
            messageCut: sql<boolean>`char_length(${contactRequests.message}) > ${MESSAGE_PREVIEW_LENGTH}`,
            status: contactRequests.status,
            suspectedSpam: contactRequests.suspectedSpam,
            createdAt: contactRequests.createdAt,
            updatedAt: contactRequests.updatedAt,
            ownerEmail: users.email,
            ...offerColumns,
          })
          .from(contactRequests)
          .leftJoin(offers, eq(offers.id, contactRequests.offerId))
          .leftJoin(users, eq(users.id, contactRequests.ownerId))
          .where(
            // Deferred join: the page's ids are found first (on the list's index), so a deep page
            // skips index entries instead of reading, cutting and joining every skipped request.
            inArray(
              contactRequests.id,
              database
                .select({ id: contactRequests.id })
                .from(contactRequests)
                .where(listConditions(filters))
                .orderBy(...listOrder(filters.sort))
                .limit(CONTACT_PAGE_SIZE)
                .offset((page - 1) * CONTACT_PAGE_SIZE),
            ),
          )
          .orderBy(...listOrder(filters.sort));
  return { requests: rows.map(withOffer), total };
}

export type AdminContactRequest = Awaited<
  ReturnType<typeof listContactRequests>
>["requests"][number];

/** The columns of a request's notes and status history (its page, the personal-data page). */
export const noteColumns = {
  id: contactNotes.id,
  contactRequestId: contactNotes.contactRequestId,
  authorEmail: contactNotes.authorEmail,
  body: contactNotes.body,
  createdAt: contactNotes.createdAt,
};
export const ownerChangeColumns = {
  id: contactOwnerChanges.id,
  contactRequestId: contactOwnerChanges.contactRequestId,
  fromOwnerEmail: contactOwnerChanges.fromOwnerEmail,
  toOwnerEmail: contactOwnerChanges.toOwnerEmail,
  authorEmail: contactOwnerChanges.authorEmail,
  createdAt: contactOwnerChanges.createdAt,
};
export const statusChangeColumns = {
  id: contactStatusChanges.id,
  contactRequestId: contactStatusChanges.contactRequestId,
  fromStatus: contactStatusChanges.fromStatus,
  toStatus: contactStatusChanges.toStatus,
  authorEmail: contactStatusChanges.authorEmail,
  createdAt: contactStatusChanges.createdAt,
};

/** The rows that belong to some requests (notes, status changes, mails), by date then id. */
export function rowsOfRequests<C extends SelectedFields>(
  table:
    | typeof contactNotes
    | typeof contactStatusChanges
    | typeof contactOwnerChanges
    | typeof mailOutbox,
  columns: C,
  ids: number[],
  direction: "asc" | "desc",
  database: Database,
): Promise<SelectResultFields<C>[]> {
  const by = direction === "asc" ? asc : desc;
  // Drizzle cannot infer a row type from a generic column set: the columns decide it.
  return database
    .select(columns)
    .from(table)
    .where(inArray(table.contactRequestId, ids))
    .orderBy(by(table.createdAt), by(table.id)) as Promise<SelectResultFields<C>[]>;
}

/** Everything about one request for its page: what the visitor sent, the offer, notes, history. */
export async function findContactRequest(id: number, database: Database = db()) {
  const [row] = await database
    .select({
      ...sentColumns,
      status: contactRequests.status,
      suspectedSpam: contactRequests.suspectedSpam,
      updatedAt: contactRequests.updatedAt,
      ownerId: contactRequests.ownerId,
      ...offerColumns,
      offerSlug: offers.slug,
      offerPrice: offers.price,
      offerActive: offers.isActive,
      quoteNumber: quotes.number,
      quoteSentAt: quotes.sentAt,
      quoteAcceptedAt: quotes.acceptedAt,
      quoteDeclinedAt: quotes.declinedAt,
    })
    .from(contactRequests)
    .leftJoin(offers, eq(offers.id, contactRequests.offerId))
    // The current quote: a sent quote replaces the previous ones (issue 29).
    .leftJoin(
      quotes,
      and(eq(quotes.contactRequestId, contactRequests.id), isNull(quotes.replacedAt)),
    )
    .where(eq(contactRequests.id, id))
    .limit(1);
  if (!row) return undefined;
  const [notes, history, ownerHistory] = await Promise.all([
    rowsOfRequests(contactNotes, noteColumns, [id], "desc", database),
    rowsOfRequests(contactStatusChanges, statusChangeColumns, [id], "desc", database),
    rowsOfRequests(contactOwnerChanges, ownerChangeColumns, [id], "desc", database),
  ]);
  return {
    ...withOffer(row),
    reference: contactReference(row.id, row.createdAt),
    notes,
    history,
    ownerHistory,
  };
}

export type ContactRequestDetail = NonNullable<Awaited<ReturnType<typeof findContactRequest>>>;

/** A status change or a note is an answer: the first one is kept (the dashboard's chart). */
const FIRST_ANSWER = sql`coalesce(${contactRequests.firstAnsweredAt}, now())`;

export type ChangeOutcome = "changed" | "unchanged" | "missing";

/** Who made a change, as each history line of a request records it. */
type Signed = { contactRequestId: number; authorId: number; authorEmail: string };

/**
 * One change of a request's field, in one transaction on its locked row: `lock` reads the field
 * (undefined: no such request) and the same value again records nothing; otherwise `record` adds
 * the history line (or says why the change cannot be made), the row gets `set` and its updated_at,
 * and the webhook announces which field changed.
 */
async function changeLockedRequest<C, Refusal extends string = never>(
  id: number,
  actor: AdminUser,
  database: Database,
  change: {
    field: "status" | "owner";
    lock: (tx: Database) => Promise<C | undefined>;
    unchanged: (current: C) => boolean;
    record: (tx: Database, current: C, signed: Signed) => Promise<Refusal | void>;
    set: PgUpdateSetSource<typeof contactRequests>;
  },
): Promise<ChangeOutcome | Refusal> {
  return database.transaction(async (tx) => {
    const current = await change.lock(tx);
    if (!current) return "missing";
    if (change.unchanged(current)) return "unchanged";
    const signed = { contactRequestId: id, authorId: actor.id, authorEmail: actor.email };
    const refused = await change.record(tx, current, signed);
    if (refused) return refused;
    await tx
      .update(contactRequests)
      .set({ ...change.set, updatedAt: sql`now()` })
      .where(eq(contactRequests.id, id));
    await enqueueWebhookEvent("request.updated", id, tx, { changes: [change.field] });
    return "changed";
  });
}

/**
 * Sets the status (any status from any other, spec section 4) and records who did it. The row is
 * locked first, so two administrators changing it at once each record the status they really
 * changed from.
 */
export async function changeContactStatus(
  id: number,
  status: ContactStatus,
  actor: AdminUser,
  database: Database = db(),
): Promise<ChangeOutcome> {
  return changeLockedRequest<{ status: ContactStatus }>(id, actor, database, {
    field: "status",
    lock: async (tx) =>
      (
        await tx
          .select({ status: contactRequests.status })
          .from(contactRequests)
          .where(eq(contactRequests.id, id))
          .for("update")
      )[0],
    unchanged: (current) => current.status === status,
    record: async (tx, current, signed) => {
      await tx
        .insert(contactStatusChanges)
        .values({ ...signed, fromStatus: current.status, toStatus: status });
    },
    set: { status, firstAnsweredAt: FIRST_ANSWER },
  });
}

/**
 * 'Attribuer à': sets the owner (an Administrateur or Commercial account) or none, records it in
 * the request's history and announces it. An account that cannot own requests is
 * `not-assignable`.
 */
export async function assignContactRequest(
  id: number,
  ownerId: number | null,
  actor: AdminUser,
  database: Database = db(),
): Promise<ChangeOutcome | "not-assignable"> {
  type Current = { ownerId: number | null; ownerEmail: string | null };
  return changeLockedRequest<Current, "not-assignable">(id, actor, database, {
    field: "owner",
    lock: async (tx) =>
      (
        await tx
          .select({ ownerId: contactRequests.ownerId, ownerEmail: users.email })
          .from(contactRequests)
          .leftJoin(users, eq(users.id, contactRequests.ownerId))
          .where(eq(contactRequests.id, id))
          .for("update", { of: contactRequests })
      )[0],
    unchanged: (current) => current.ownerId === ownerId,
    record: async (tx, current, signed) => {
      let toEmail: string | null = null;
      if (ownerId !== null) {
        const [owner] = await tx
          .select({ email: users.email })
          .from(users)
          .where(and(eq(users.id, ownerId), inArray(users.role, [...OWNER_ROLES])));
        if (!owner) return "not-assignable";
        toEmail = owner.email;
      }
      await tx
        .insert(contactOwnerChanges)
        .values({ ...signed, fromOwnerEmail: current.ownerEmail, toOwnerEmail: toEmail });
    },
    set: { ownerId },
  });
}

/** Adds an internal note signed by the administrator; a note counts as activity (updated_at). */
export async function addContactNote(
  id: number,
  body: string,
  actor: AdminUser,
  database: Database = db(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const touched = await tx
      .update(contactRequests)
      .set({ updatedAt: sql`now()`, firstAnsweredAt: FIRST_ANSWER })
      .where(eq(contactRequests.id, id))
      .returning({ id: contactRequests.id });
    if (touched.length === 0) return false;
    await tx
      .insert(contactNotes)
      .values({ contactRequestId: id, authorId: actor.id, authorEmail: actor.email, body });
    await enqueueWebhookEvent("request.updated", id, tx, {
      changes: ["note"],
    });
    return true;
  });
}

/**
 * 'Ce n'est pas du spam': the request joins the normal list and its notification is queued in
 * the same transaction. Only a request still flagged changes, so a double click mails once.
 */
export async function clearSuspectedSpam(
  id: number,
  database: Database = db(),
): Promise<ChangeOutcome> {
  return database.transaction(async (tx) => {
    const cleared = await tx
      .update(contactRequests)
      .set({ suspectedSpam: false, updatedAt: sql`now()` })
      .where(and(eq(contactRequests.id, id), eq(contactRequests.suspectedSpam, true)))
      .returning({ id: contactRequests.id });
    if (cleared.length > 0) {
      await announceNewRequest(id, tx);
      return "changed";
    }
    const [exists] = await tx
      .select({ id: contactRequests.id })
      .from(contactRequests)
      .where(eq(contactRequests.id, id));
    return exists ? "unchanged" : "missing";
  });
}

/** One change an administrator makes to a request, from its page or from the list. */
export type ContactChange =
  | { intent: "status"; status: ContactStatus }
  | { intent: "assign"; ownerId: number | null }
  | { intent: "note"; body: string }
  | { intent: "not-spam" };

export type ContactChangeResult =
  { kind: "done" } | { kind: "missing" } | { kind: "not-assignable" } | { kind: "failed" };

/**
 * Applies one change to request `id` on behalf of `actor` (each is one transaction and records its
 * author); `missing` when the request is gone, `failed` (logged) on a database error.
 */
export async function applyContactChange(
  id: number,
  change: ContactChange,
  actor: AdminUser,
  context: { requestId: string },
): Promise<ContactChangeResult> {
  let outcome: ChangeOutcome | "not-assignable" | boolean;
  try {
    outcome =
      change.intent === "status"
        ? await changeContactStatus(id, change.status, actor)
        : change.intent === "assign"
          ? await assignContactRequest(id, change.ownerId, actor)
          : change.intent === "note"
            ? await addContactNote(id, change.body, actor)
            : await clearSuspectedSpam(id);
  } catch (error) {
    log.error("contact request update failed", {
      requestId: context.requestId,
      intent: change.intent,
      error,
    });
    return { kind: "failed" };
  }
  if (outcome === false || outcome === "missing") return { kind: "missing" };
  if (outcome === "not-assignable") return { kind: "not-assignable" };
  log.info("contact request updated", {
    requestId: context.requestId,
    contactId: id,
    intent: change.intent,
    userId: actor.id,
  });
  return { kind: "done" };
}

/** Marks a request as suspected spam from the list ('Marquer comme spam'): out of the list and counts. */
export async function markSuspectedSpam(
  id: number,
  database: Database = db(),
): Promise<ChangeOutcome> {
  const rows = await database
    .update(contactRequests)
    .set({ suspectedSpam: true, updatedAt: sql`now()` })
    .where(and(eq(contactRequests.id, id), eq(contactRequests.suspectedSpam, false)))
    .returning({ id: contactRequests.id });
  return rows.length > 0 ? "changed" : "unchanged";
}

/** One change applied to the requests ticked in the list. */
export type BulkChange =
  | { intent: "status"; status: ContactStatus }
  | { intent: "assign"; ownerId: number | null }
  | { intent: "spam" };

export type BulkResult =
  { kind: "done"; changed: number } | { kind: "not-assignable" } | { kind: "failed" };

/**
 * The list's bulk actions: each request changes in its own transaction and history, as from its
 * page; requests gone meanwhile are skipped. An owner who cannot own requests refuses the lot.
 */
export async function applyBulkChange(
  ids: number[],
  change: BulkChange,
  actor: AdminUser,
  context: { requestId: string },
): Promise<BulkResult> {
  let changed = 0;
  try {
    for (const id of ids) {
      const outcome =
        change.intent === "status"
          ? await changeContactStatus(id, change.status, actor)
          : change.intent === "assign"
            ? await assignContactRequest(id, change.ownerId, actor)
            : await markSuspectedSpam(id);
      if (outcome === "not-assignable") return { kind: "not-assignable" };
      if (outcome === "changed") changed++;
    }
  } catch (error) {
    log.error("bulk contact change failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  log.info("contact requests changed in bulk", {
    requestId: context.requestId,
    intent: change.intent,
    count: ids.length,
    changed,
    userId: actor.id,
  });
  return { kind: "done", changed };
}

export const CSV_HEADERS = [
  "Date",
  "Nom",
  "Email",
  "Téléphone",
  "Offre",
  "Référence",
  "Statut",
  "Message",
  "Configuration",
  "Société",
  "SIREN",
  "N° TVA",
] as const;

/** Rows read per query while exporting: memory stays flat whatever the number of requests. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every request of a list view, in the list's order, as batches read by keyset (created_at, id):
 * no transaction or cursor stays open between batches (PGlite has one connection for everyone),
 * and the position is kept as the database's own text of created_at, microseconds included.
 */
export async function* exportContactRequests(
  filters: ContactQuery,
  batchSize = EXPORT_BATCH_SIZE,
  database: Database = db(),
) {
  const oldest = filters.sort === "oldest";
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const position = after
      ? oldest
        ? sql`(${contactRequests.createdAt}, ${contactRequests.id}) > (${after.at}::timestamptz, ${after.id})`
        : sql`(${contactRequests.createdAt}, ${contactRequests.id}) < (${after.at}::timestamptz, ${after.id})`
      : undefined;
    const rows = await database
      .select({
        ...sentColumns,
        position: sql<string>`${contactRequests.createdAt}::text`,
        status: contactRequests.status,
        ...offerColumns,
      })
      .from(contactRequests)
      .leftJoin(offers, eq(offers.id, contactRequests.offerId))
      .where(and(listConditions(filters), position))
      .orderBy(...exportOrder(filters.sort))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => {
      const { offer, ...rest } = withOffer(row);
      return {
        ...rest,
        offerTitle: offer?.title ?? null,
        offerReference: offer?.reference ?? null,
        statusLabel: CONTACT_STATUS_LABELS[row.status],
      };
    });
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { at: last.position, id: last.id };
  }
}

/**
 * The CSV file of a list view (UTF-8 with BOM, ';', French headers), produced batch by batch as
 * the client reads it: a slow download holds one batch in memory, never the whole table.
 */
export function contactRequestsCsv(
  filters: ContactQuery,
  database: Database = db(),
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = exportContactRequests(filters, EXPORT_BATCH_SIZE, database);
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLine(CSV_HEADERS)));
          return;
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        const text = next.value
          .map((r) =>
            csvLine([
              spreadsheetDateTime(r.createdAt),
              r.name,
              r.email,
              r.phone,
              r.offerTitle,
              r.offerReference,
              r.statusLabel,
              r.message,
              r.configuration ? configurationLines(r.configuration).join("\n") : "",
              r.company,
              r.siren,
              r.siren ? vatNumberOf(r.siren) : null,
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
