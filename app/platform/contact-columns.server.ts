import { requestOffer, type RequestOfferColumns } from "~/platform/request-offer";
import { contactRequests, offers } from "~/platform/schema.server";

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
