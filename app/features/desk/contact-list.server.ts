// The desk's list of requests: filters, order, one page and its count.
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import {
  CONTACT_PAGE_SIZE,
  sortParts,
  SPAM_FILTER,
  type ContactListFilters,
  type ContactSort,
} from "./contact-filters";
import { likePattern } from "~/lib/offer-filters";
import { db, type Database } from "~/platform/db.server";
import { offerColumns } from "~/platform/contact-columns.server";
import { contactRequests, offers, users } from "~/platform/schema.server";
import { contactStatusCounts } from "./contact-counts.server";
import { withOffer } from "~/platform/contact-columns.server";

// The administrator's side: list, request page, changes, export.

/** Characters of a message shown on a list card (the request's page shows all of it). */
export const MESSAGE_PREVIEW_LENGTH = 140;

/** A list view as the server reads it: the URL's filters and who looks (for `owner=me`). */
export type ContactQuery = ContactListFilters & { viewerId?: number };

/**
 * The rows a list view shows: spam or not, one status, one owner (the viewer's or none), a search
 * across the request's fields.
 */
export function listConditions(filters: ContactQuery): SQL | undefined {
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
  if (filters.source) conditions.push(eq(contactRequests.source, filters.source));
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
