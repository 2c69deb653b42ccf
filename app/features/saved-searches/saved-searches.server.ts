import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import {
  alertRateLimitKeys,
  awaitingConfirmation,
  deleteOfAddress,
  drawLinkToken,
  linkTokenHash,
  mailOfferColumns,
  type MailOffer,
  ofAddress,
  queueConfirmationMail,
  purgeSubscriptions,
  usableConfirmLink,
} from "~/features/alerts/subscriptions.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { listActiveOffers } from "~/features/offers/offer-listing.server";
import { clientSubject } from "~/platform/client-address.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { takeAttempt } from "~/platform/rate-limit.server";
import {
  mailOutbox,
  offers,
  savedSearchLinks,
  savedSearchOffers,
  savedSearches,
} from "~/platform/schema.server";
import {
  SEARCH_DIGEST_HOURS,
  SEARCH_IDLE_MONTHS,
  savedSearchFilters,
  UNCONFIRMED_SEARCH_DAYS,
} from "./saved-searches";

// Saved searches (issue 42), built as the stock alerts (features/alerts/alerts.server.ts):
// - Double opt-in: a search counts once its confirmation link was followed (confirmed_at); the
//   mail limits per mailbox, domain and site are the alerts' own counters (mayMailConfirmation).
// - Tokens are drawn by the mail worker as each mail leaves; the database keeps their SHA-256.
// - A periodic check (runFollowUpChecks, every five minutes) compares each confirmed search's
//   orderable matches with the offers it has already seen (saved_search_offers): a new row is a
//   new match; an offer that stops matching or is sold out is forgotten, so that its return is new.
// - One digest a day at most per address, claimed under the address's rows' locks in the
//   transaction that queues it: several instances queue it once.

const HOUR_MS = 60 * 60 * 1000;

export type SearchSubscription =
  { kind: "requested" } | { kind: "rate-limited"; retryAfterSeconds: number } | { kind: "failed" };

/**
 * `Me prévenir des nouvelles offres`: stores (or renews) the address's search and queues its
 * confirmation mail. Same answer whatever the address's searches were: a confirmed search is left
 * as it is (no mail). Refused per client address (ALERT_RATE_LIMIT an hour).
 */
export async function subscribeToSavedSearch(
  input: { query: string; email: string },
  context: { clientIp: string; requestId: string },
  database: Database = db(),
): Promise<SearchSubscription> {
  const keys = {
    ...alertRateLimitKeys(input.email, context.clientIp),
    ip: `search:ip:${clientSubject(context.clientIp)}`,
  };
  try {
    const refused = await takeAttempt(
      [{ key: keys.ip, limit: env().ALERT_RATE_LIMIT, windowMs: HOUR_MS }],
      database,
    );
    if (refused) return { kind: "rate-limited", ...refused };
    return await database.transaction(async (tx) => {
      const stored = await tx.execute<{ id: number }>(sql`
        insert into ${savedSearches} (email, query) values (${input.email}, ${input.query})
        on conflict (lower(email), query) do update
          set email = excluded.email
          where ${savedSearches}.confirmed_at is null
        returning id`);
      const searchId = stored.rows[0]?.id;
      if (searchId === undefined) return { kind: "requested" as const };
      const outbox = { savedSearchId: searchId, kind: MAIL_KINDS.savedSearchConfirmation };
      await queueConfirmationMail(tx, savedSearches, searchId, outbox, keys, context);
      log.info("saved search requested", { requestId: context.requestId, searchId });
      return { kind: "requested" as const };
    });
  } catch (error) {
    log.error("saved search request failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
}

const usableLink = (tokenHash: string) =>
  usableConfirmLink(savedSearches, tokenHash, UNCONFIRMED_SEARCH_DAYS);

const byUnsubscribeLink = (tokenHash: string) =>
  sql`${savedSearches.id} in (select ${savedSearchLinks.searchId} from ${savedSearchLinks} where ${savedSearchLinks.tokenHash} = ${tokenHash})`;

/** A link's page: the searches it reaches (their queries), or undefined for an unknown link. */
export async function findSavedSearchesByToken(
  token: string | undefined,
  purpose: "confirm" | "unsubscribe",
  database: Database = db(),
): Promise<{ queries: string[]; confirmed: boolean } | undefined> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return undefined;
  const rows = await database
    .select({ query: savedSearches.query, confirmedAt: savedSearches.confirmedAt })
    .from(savedSearches)
    .where(purpose === "confirm" ? usableLink(tokenHash) : byUnsubscribeLink(tokenHash))
    .orderBy(asc(savedSearches.id));
  if (rows.length === 0) return undefined;
  return { queries: rows.map((r) => r.query), confirmed: rows.every((r) => r.confirmedAt) };
}

/** The orderable offers (active, not sold out) a query lists now, by id. */
async function matchingOffers(query: string, database: Database): Promise<number[]> {
  const listed = await listActiveOffers(savedSearchFilters(query), 1, 100_000, database);
  return listed.offers.filter((offer) => offer.delivery !== "sold_out").map((offer) => offer.id);
}

/** Records `offerIds` as the search's matches: new ones pending (or seen, `notified`); others forgotten. */
async function recordMatches(
  searchId: number,
  offerIds: number[],
  notified: boolean,
  database: Database,
): Promise<number> {
  const ids = sql`${`{${offerIds.join(",")}}`}::int[]`;
  await database.execute(sql`
    delete from ${savedSearchOffers}
    where search_id = ${searchId} and not (offer_id = any(${ids}))`);
  if (offerIds.length === 0) return 0;
  const added = await database.execute(sql`
    insert into ${savedSearchOffers} (search_id, offer_id, notified_at)
    select ${searchId}, unnest(${ids}), ${notified ? sql`now()` : sql`null`}
    on conflict do nothing
    returning offer_id`);
  return added.rows.length;
}

/**
 * The confirmation link's button: the search counts from now, and what it lists now is already
 * seen (only later offers are news). Following it twice is harmless.
 */
export async function confirmSavedSearch(
  token: string | undefined,
  context: { requestId: string },
  database: Database = db(),
): Promise<{ kind: "confirmed"; query: string } | { kind: "invalid-link" }> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return { kind: "invalid-link" };
  const [search] = await database
    .select({ id: savedSearches.id, query: savedSearches.query })
    .from(savedSearches)
    .where(and(usableLink(tokenHash), isNull(savedSearches.confirmedAt)));
  if (search) {
    const seen = await matchingOffers(search.query, database);
    await database.transaction(async (tx) => {
      const [claimed] = await tx
        .update(savedSearches)
        .set({ confirmedAt: sql`now()` })
        .where(and(eq(savedSearches.id, search.id), isNull(savedSearches.confirmedAt)))
        .returning({ id: savedSearches.id });
      if (claimed) await recordMatches(search.id, seen, true, tx);
    });
    log.info("saved search confirmed", { requestId: context.requestId, searchId: search.id });
    return { kind: "confirmed", query: search.query };
  }
  const [confirmed] = await database
    .select({ query: savedSearches.query })
    .from(savedSearches)
    .where(usableLink(tokenHash));
  return confirmed ? { kind: "confirmed", query: confirmed.query } : { kind: "invalid-link" };
}

/** The unsubscribe link (page button or one-click POST): the searches of that mail are deleted. */
export async function unsubscribeSavedSearch(
  token: string | undefined,
  context: { requestId: string },
  database: Database = db(),
): Promise<{ kind: "unsubscribed"; count: number } | { kind: "invalid-link" }> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return { kind: "invalid-link" };
  const gone = await database
    .delete(savedSearches)
    .where(byUnsubscribeLink(tokenHash))
    .returning({ id: savedSearches.id });
  if (gone.length === 0) return { kind: "invalid-link" };
  log.info("saved search unsubscribed", { requestId: context.requestId, searches: gone.length });
  return { kind: "unsubscribed", count: gone.length };
}

/**
 * The periodic check: records each confirmed search's new matches, then queues one digest per
 * address with pending matches and no digest in the last SEARCH_DIGEST_HOURS. Returns the mails.
 */
export async function queueSavedSearchDigests(database: Database = db()): Promise<number> {
  const searches = await database
    .select({ id: savedSearches.id, query: savedSearches.query })
    .from(savedSearches)
    .where(isNotNull(savedSearches.confirmedAt));
  const byQuery = new Map<string, number[]>();
  for (const search of searches) {
    const matches = byQuery.get(search.query) ?? (await matchingOffers(search.query, database));
    byQuery.set(search.query, matches);
    const added = await recordMatches(search.id, matches, false, database);
    if (added > 0) {
      await database
        .update(savedSearches)
        .set({ lastMatchAt: sql`now()` })
        .where(eq(savedSearches.id, search.id));
    }
  }
  const due = await database.execute<{ address: string }>(sql`
    select distinct lower(s.email) as address from ${savedSearches} s
    join ${savedSearchOffers} o on o.search_id = s.id and o.notified_at is null
    where s.confirmed_at is not null`);
  let queued = 0;
  for (const { address } of due.rows) {
    queued += await database.transaction(async (tx) => {
      // The address's rows locked: a concurrent check waits here, then sees this digest.
      const rows = await tx.execute<{ id: number; recent: boolean }>(sql`
        select id, coalesce(last_mailed_at > now() - make_interval(hours => ${SEARCH_DIGEST_HOURS}), false) as recent
        from ${savedSearches} where lower(email) = ${address} and confirmed_at is not null
        order by id for update`);
      if (rows.rows.length === 0 || rows.rows.some((r) => r.recent)) return 0;
      const ids = rows.rows.map((r) => r.id);
      await tx
        .update(savedSearches)
        .set({ lastMailedAt: sql`now()` })
        .where(inArray(savedSearches.id, ids));
      await tx
        .insert(mailOutbox)
        .values({ savedSearchId: ids[0], kind: MAIL_KINDS.savedSearchDigest });
      await notifyMailWorkers(tx);
      return 1;
    });
  }
  return queued;
}

export type SavedSearchMailData =
  | { kind: "confirmation"; email: string; token: string; query: string }
  | {
      kind: "digest";
      email: string;
      token: string;
      searches: { query: string; offers: MailOffer[] }[];
    };

/**
 * The worker's look at a search's mail as it leaves: a new token (the confirmation's, and the
 * unsubscribe link of the searches in the mail). For a digest, the address's pending matches are
 * taken now (marked notified by mail `mailId`), with those this mail took at an earlier attempt: a
 * send that failed and is retried lists them again. Undefined when nothing is due any more.
 */
export async function drawSavedSearchMail(
  searchId: number,
  kind: string,
  mailId: number,
  database: Database = db(),
): Promise<SavedSearchMailData | undefined> {
  const { token, tokenHash } = drawLinkToken();
  if (kind === MAIL_KINDS.savedSearchConfirmation) {
    const [search] = await database
      .update(savedSearches)
      .set({ tokenHash })
      .where(
        and(
          eq(savedSearches.id, searchId),
          awaitingConfirmation(savedSearches, UNCONFIRMED_SEARCH_DAYS),
        ),
      )
      .returning({ email: savedSearches.email, query: savedSearches.query });
    if (!search) return undefined;
    await database.insert(savedSearchLinks).values({ tokenHash, searchId });
    return { kind: "confirmation", email: search.email, token, query: search.query };
  }
  const [lead] = await database
    .select({ email: savedSearches.email })
    .from(savedSearches)
    .where(eq(savedSearches.id, searchId));
  if (!lead) return undefined;
  const taken = await database.execute<{ search_id: number; offer_id: number }>(sql`
    update ${savedSearchOffers} o set notified_at = now(), mail_id = ${mailId}
    from ${savedSearches} s
    where s.id = o.search_id and lower(s.email) = lower(${lead.email})
      and s.confirmed_at is not null and (o.notified_at is null or o.mail_id = ${mailId})
    returning o.search_id, o.offer_id`);
  if (taken.rows.length === 0) return undefined;
  const searchIds = [...new Set(taken.rows.map((r) => Number(r.search_id)))];
  const offerIds = [...new Set(taken.rows.map((r) => Number(r.offer_id)))];
  await database
    .insert(savedSearchLinks)
    .values(searchIds.map((id) => ({ tokenHash, searchId: id })));
  const [queries, offerRows] = await Promise.all([
    database
      .select({ id: savedSearches.id, query: savedSearches.query })
      .from(savedSearches)
      .where(inArray(savedSearches.id, searchIds))
      .orderBy(asc(savedSearches.id)),
    database
      .select({ id: offers.id, ...mailOfferColumns })
      .from(offers)
      .where(and(inArray(offers.id, offerIds), eq(offers.isActive, true))),
  ]);
  const offerById = new Map(offerRows.map((o) => [o.id, o]));
  const searches = queries
    .map((search) => ({
      query: search.query,
      offers: taken.rows
        .filter((r) => Number(r.search_id) === search.id)
        .map((r) => offerById.get(Number(r.offer_id)))
        .filter((o): o is NonNullable<typeof o> => o !== undefined)
        .map(({ id: _id, ...offer }) => offer),
    }))
    .filter((search) => search.offers.length > 0);
  if (searches.length === 0) return undefined;
  return { kind: "digest", email: lead.email, token, searches };
}

/** The admin's card: the confirmed searches' queries, most common first, with their counts. */
export async function waitingSearchCounts(
  limit = 10,
  database: Database = db(),
): Promise<{ query: string; count: number }[]> {
  const n = count();
  return database
    .select({ query: savedSearches.query, count: n })
    .from(savedSearches)
    .where(isNotNull(savedSearches.confirmedAt))
    .groupBy(savedSearches.query)
    .orderBy(desc(n), asc(savedSearches.query))
    .limit(limit);
}

/**
 * Retention: unconfirmed searches UNCONFIRMED_SEARCH_DAYS after their request, confirmed ones
 * SEARCH_IDLE_MONTHS after their last match (or their confirmation), with their mails.
 */
export async function purgeSavedSearches(
  options: { dryRun?: boolean } = {},
  database: Database = db(),
): Promise<{ unconfirmed: number; idle: number }> {
  const expired = sql`coalesce(last_match_at, confirmed_at) < now() - make_interval(months => ${SEARCH_IDLE_MONTHS})`;
  const [unconfirmed, idle] = await purgeSubscriptions(
    database,
    savedSearches,
    UNCONFIRMED_SEARCH_DAYS,
    expired,
    options.dryRun,
  );
  return { unconfirmed, idle };
}

// Personal data (the page `Données personnelles`): one address's searches, exported and erased.

export async function savedSearchesOfAddress(email: string, database: Database = db()) {
  return database
    .select({
      id: savedSearches.id,
      email: savedSearches.email,
      query: savedSearches.query,
      createdAt: savedSearches.createdAt,
      confirmedAt: savedSearches.confirmedAt,
      lastMatchAt: savedSearches.lastMatchAt,
      lastMailedAt: savedSearches.lastMailedAt,
    })
    .from(savedSearches)
    .where(ofAddress(savedSearches, email))
    .orderBy(asc(savedSearches.createdAt), asc(savedSearches.id));
}

export type SavedSearchOfAddress = Awaited<ReturnType<typeof savedSearchesOfAddress>>[number];

/** Deletes every search of one address (their mails, matches and links cascade); how many. */
export const deleteSavedSearchesOfAddress = (email: string, database: Database) =>
  deleteOfAddress(savedSearches, email, database);
