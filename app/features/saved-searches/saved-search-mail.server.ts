import { subscriptionMessage } from "~/features/alerts/alert-mail.server";
import { alertTokenLink } from "~/features/alerts/alerts";
import type { MailRenderer } from "~/features/mail/mail-renderer.server";
import { monthlyLabel } from "~/lib/money";
import { deliveryLabel } from "~/lib/offer-fields";
import { siteConfig } from "~/platform/site.server";
import {
  renderSavedSearchConfirmationMail,
  renderSavedSearchDigestMail,
} from "./saved-search-mail";
import { drawSavedSearchMail } from "./saved-searches.server";
import {
  SAVED_SEARCH_CONFIRM_PATH,
  SAVED_SEARCH_UNSUBSCRIBE_PATH,
  savedSearchListingUrl,
} from "./saved-searches";

/**
 * A saved search's mail as it leaves (a new link token drawn now), or why it is not sent: the
 * search was confirmed, unsubscribed or purged meanwhile, or its matches already went. To the
 * address alone, with the one-click unsubscribe headers (RFC 8058).
 */
export const prepareSavedSearchMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) => {
  const mailed =
    row.savedSearchId !== null
      ? await drawSavedSearchMail(row.savedSearchId, row.kind, row.id, database)
      : undefined;
  if (!mailed) return { failed: "Recherche confirmée, supprimée ou déjà envoyée entre-temps" };
  const base = settings.baseUrl.replace(/\/+$/, "");
  const unsubscribeUrl = alertTokenLink(base, SAVED_SEARCH_UNSUBSCRIBE_PATH, mailed.token);
  const mail =
    mailed.kind === "confirmation"
      ? renderSavedSearchConfirmationMail({
          query: mailed.query,
          siteName: siteConfig().name,
          listingUrl: savedSearchListingUrl(base, mailed.query),
          confirmUrl: alertTokenLink(base, SAVED_SEARCH_CONFIRM_PATH, mailed.token),
          unsubscribeUrl,
        })
      : renderSavedSearchDigestMail({
          searches: mailed.searches.map((search) => ({
            query: search.query,
            listingUrl: savedSearchListingUrl(base, search.query),
            offers: search.offers.map((offer) => ({
              title: offer.title,
              reference: offer.reference,
              price: monthlyLabel(offer.price, settings.pricing),
              delivery: deliveryLabel(offer),
              url: `${base}/offers/${offer.slug}`,
            })),
          })),
          unsubscribeUrl,
        });
  return {
    message: subscriptionMessage(mail, {
      settings,
      email: mailed.email,
      messageId: `<search-${row.savedSearchId}.mail-${row.id}@${messageDomain}>`,
      unsubscribeUrl,
    }),
    logged: { savedSearchId: row.savedSearchId, kind: row.kind, attempts: row.attempts },
  };
};
