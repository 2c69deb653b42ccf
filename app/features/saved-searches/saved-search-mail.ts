import { renderConfirmationMail, subscriptionMail } from "~/features/alerts/alert-mail";
import { escapeHtml, headerText, type RenderedMail } from "~/features/mail/mail-text";
import {
  describeSavedSearch,
  SAVED_SEARCH_PRIVACY_NOTICE,
  UNCONFIRMED_SEARCH_DAYS,
} from "./saved-searches";

// A saved search's two mails (issue 42), in the stock alert's form (alert-mail.ts). Nothing the
// visitor typed but the search's own words, which the listing shows the same way.

/** The double opt-in mail: the search in words, a link to confirm (7 days), one to unsubscribe. */
export function renderSavedSearchConfirmationMail(input: {
  query: string;
  siteName: string;
  listingUrl: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const search = headerText(describeSavedSearch(input.query));
  return renderConfirmationMail({
    subject: "Confirmez votre recherche enregistrée",
    asked: `Une alerte a été demandée sur ${headerText(input.siteName)} pour être prévenu(e) des nouvelles offres de la recherche : ${search}.`,
    askedLines: [input.listingUrl],
    confirmLabel: "Confirmer ma recherche",
    days: UNCONFIRMED_SEARCH_DAYS,
    confirmUrl: input.confirmUrl,
    unsubscribeUrl: input.unsubscribeUrl,
    notice: SAVED_SEARCH_PRIVACY_NOTICE,
  });
}

export type DigestOffer = {
  title: string;
  reference: string;
  price: string;
  delivery: string;
  url: string;
};

/** The daily digest: for each search, its new offers with their links. */
export function renderSavedSearchDigestMail(input: {
  searches: { query: string; listingUrl: string; offers: DigestOffer[] }[];
  unsubscribeUrl: string;
}): RenderedMail {
  const total = input.searches.reduce((n, s) => n + s.offers.length, 0);
  const subject =
    total > 1
      ? `${total} nouvelles offres pour vos recherches`
      : "Une nouvelle offre pour votre recherche";
  const line = (o: DigestOffer) =>
    `${headerText(o.title)} (${headerText(o.reference)}) — ${o.price}, ${o.delivery}`;
  const once = "Vous recevez au plus un e-mail par jour.";
  return subscriptionMail({
    subject,
    text: [
      ...input.searches.flatMap((search) => [
        `Recherche : ${headerText(describeSavedSearch(search.query))}`,
        ...search.offers.flatMap((o) => [`- ${line(o)}`, `  ${o.url}`]),
        `Toutes les offres de cette recherche : ${search.listingUrl}`,
        "",
      ]),
      once,
    ],
    html: `${input.searches
      .map(
        (
          search,
        ) => `<p><strong>Recherche : ${escapeHtml(describeSavedSearch(search.query))}</strong></p>
<ul>
${search.offers.map((o) => `<li><a href="${escapeHtml(o.url)}">${escapeHtml(headerText(o.title))}</a> (${escapeHtml(headerText(o.reference))}) — ${escapeHtml(o.price)}, ${escapeHtml(o.delivery)}</li>`).join("\n")}
</ul>
<p><a href="${escapeHtml(search.listingUrl)}">Toutes les offres de cette recherche</a></p>`,
      )
      .join("\n")}
<p>${once}</p>`,
    unsubscribeUrl: input.unsubscribeUrl,
    notice: SAVED_SEARCH_PRIVACY_NOTICE,
  });
}
