import { htmlDocument, unsubscribeFooter } from "~/features/alerts/alert-mail";
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
  const site = headerText(input.siteName);
  const search = headerText(describeSavedSearch(input.query));
  const subject = "Confirmez votre recherche enregistrée";
  const footer = unsubscribeFooter(input.unsubscribeUrl, SAVED_SEARCH_PRIVACY_NOTICE);
  const asked = `Une alerte a été demandée sur ${site} pour être prévenu(e) des nouvelles offres de la recherche : ${search}.`;
  const unless = `Sans confirmation, votre adresse est effacée dans ${UNCONFIRMED_SEARCH_DAYS} jours et vous ne recevrez rien d'autre. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.`;
  const text = [
    "Bonjour,",
    "",
    asked,
    input.listingUrl,
    "",
    `Pour la confirmer, ouvrez ce lien (valable ${UNCONFIRMED_SEARCH_DAYS} jours) :`,
    input.confirmUrl,
    "",
    unless,
    ...footer.text,
    "",
  ].join("\n");
  const confirm = escapeHtml(input.confirmUrl);
  const html = htmlDocument(
    subject,
    `<p>Bonjour,</p>
<p>${escapeHtml(asked)}</p>
<p><a href="${confirm}">Confirmer ma recherche</a></p>
<p>Ce lien est valable ${UNCONFIRMED_SEARCH_DAYS} jours. S'il ne s'ouvre pas, copiez cette adresse dans votre navigateur :<br>
<span style="word-break:break-all">${confirm}</span></p>
<p>${escapeHtml(unless)}</p>
${footer.html}`,
  );
  return { subject, text, html };
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
  const footer = unsubscribeFooter(input.unsubscribeUrl, SAVED_SEARCH_PRIVACY_NOTICE);
  const line = (o: DigestOffer) =>
    `${headerText(o.title)} (${headerText(o.reference)}) — ${o.price}, ${o.delivery}`;
  const text = [
    "Bonjour,",
    "",
    ...input.searches.flatMap((search) => [
      `Recherche : ${headerText(describeSavedSearch(search.query))}`,
      ...search.offers.flatMap((o) => [`- ${line(o)}`, `  ${o.url}`]),
      `Toutes les offres de cette recherche : ${search.listingUrl}`,
      "",
    ]),
    "Vous recevez au plus un e-mail par jour.",
    ...footer.text,
    "",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Bonjour,</p>
${input.searches
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
<p>Vous recevez au plus un e-mail par jour.</p>
${footer.html}`,
  );
  return { subject, text, html };
}
