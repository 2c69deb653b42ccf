import { eq } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Database } from "~/platform/db.server";
import { requestOffer, type RequestOfferColumns } from "~/platform/request-offer";
import { contactRequests, offers, users } from "~/platform/schema.server";

// The column sets every reader of a request starts from: the list, the page, the personal-data
// export and the webhooks' payload (one place to add a field the visitor sends). They sit on the
// schema, below the features, so that the desk, the webhooks and privacy read them without
// importing one another.

/** Where the visit that sent it came from (issue 42): utm_* and the referring site. */
export const attributionColumns = {
  source: contactRequests.source,
  medium: contactRequests.medium,
  campaign: contactRequests.campaign,
  term: contactRequests.term,
  content: contactRequests.content,
  referrer: contactRequests.referrer,
};

/** What the visitor sent: every reader of a request starts from these. */
export const sentColumns = {
  id: contactRequests.id,
  name: contactRequests.name,
  email: contactRequests.email,
  phone: contactRequests.phone,
  company: contactRequests.company,
  siren: contactRequests.siren,
  message: contactRequests.message,
  configuration: contactRequests.configuration,
  createdAt: contactRequests.createdAt,
  ...attributionColumns,
};

/** The request's offer as it is now and as it was when sent (see withOffer, requestOffer). */
export const offerColumns = {
  offerId: contactRequests.offerId,
  currentTitle: offers.title,
  currentReference: offers.reference,
  snapshotTitle: contactRequests.offerTitle,
  snapshotReference: contactRequests.offerReference,
};
/** The offer as it is now, or its snapshot once deleted, or null for a general request. */
export function withOffer<T extends RequestOfferColumns>(row: T) {
  const { currentTitle, currentReference, snapshotTitle, snapshotReference, ...rest } = row;
  return {
    ...rest,
    offer: requestOffer({ currentTitle, currentReference, snapshotTitle, snapshotReference }),
  };
}

/**
 * Requests with the given columns and `owner`, their owner's address (null when nobody owns one):
 * the caller adds its joins and its condition. The mails to the owner or the team read it so.
 */
export function selectRequestsWithOwner<T extends SelectedFields>(columns: T, database: Database) {
  return database
    .select({ ...columns, owner: users.email })
    .from(contactRequests)
    .leftJoin(users, eq(users.id, contactRequests.ownerId));
}

/** One request's columns with its owner's address; undefined without an id or such a request. */
export async function requestWithOwner<T extends SelectedFields>(
  id: number | null,
  columns: T,
  database: Database,
) {
  if (id === null) return undefined;
  const [row] = await selectRequestsWithOwner(columns, database).where(eq(contactRequests.id, id));
  return row;
}
