import { ALERT_PRIVACY_NOTICE, UNCONFIRMED_ALERT_DAYS } from "./alerts";
import { escapeHtml, headerText, mailDocument, type RenderedMail } from "~/features/mail/mail-text";

// The two mails of an alert (issue 30). Nothing the visitor typed is in them (their address is
// the recipient only): the offer's title, reference, price and links are the site's own.

export type AlertMailOffer = { title: string; reference: string };

/**
 * Every alert or saved search mail: the greeting, its lines (text) and paragraphs (HTML), then the
 * one-click unsubscribe link and the privacy notice.
 */
export function subscriptionMail(input: {
  subject: string;
  text: string[];
  html: string;
  unsubscribeUrl: string;
  notice?: string;
}): RenderedMail {
  const notice = input.notice ?? ALERT_PRIVACY_NOTICE;
  const url = escapeHtml(input.unsubscribeUrl);
  const text = [
    "Bonjour,",
    "",
    ...input.text,
    "",
    "--",
    `Se désinscrire (un clic, sans connexion) : ${input.unsubscribeUrl}`,
    notice,
    "",
  ];
  const footer = `<p style="color:#555;font-size:13px">${escapeHtml(notice)} <a href="${url}">Se désinscrire</a></p>`;
  return {
    subject: input.subject,
    text: text.join("\n"),
    html: mailDocument(input.subject, `<p>Bonjour,</p>\n${input.html}\n${footer}`),
  };
}

/**
 * The double opt-in mail of an alert or a saved search: what was asked (a sentence, then any
 * lines of the text only), a link to confirm valid `days`, what happens without it.
 */
export function renderConfirmationMail(input: {
  subject: string;
  asked: string;
  askedLines?: string[];
  confirmLabel: string;
  days: number;
  confirmUrl: string;
  unsubscribeUrl: string;
  notice?: string;
}): RenderedMail {
  const { days } = input;
  const unless = `Sans confirmation, votre adresse est effacée dans ${days} jours et vous ne recevrez rien d'autre. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.`;
  const confirm = escapeHtml(input.confirmUrl);
  return subscriptionMail({
    subject: input.subject,
    unsubscribeUrl: input.unsubscribeUrl,
    notice: input.notice,
    text: [
      input.asked,
      ...(input.askedLines ?? []),
      "",
      `Pour la confirmer, ouvrez ce lien (valable ${days} jours) :`,
      input.confirmUrl,
      "",
      unless,
    ],
    html: `<p>${escapeHtml(input.asked)}</p>
<p><a href="${confirm}">${escapeHtml(input.confirmLabel)}</a></p>
<p>Ce lien est valable ${days} jours. S'il ne s'ouvre pas, copiez cette adresse dans votre navigateur :<br>
<span style="word-break:break-all">${confirm}</span></p>
<p>${escapeHtml(unless)}</p>`,
  });
}

/** The double opt-in mail: a link to confirm (valid 7 days), and one to unsubscribe. */
export function renderAlertConfirmationMail(input: {
  offer: AlertMailOffer;
  siteName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const title = headerText(input.offer.title);
  return renderConfirmationMail({
    subject: `Confirmez votre alerte : ${title}`,
    asked: `Une alerte a été demandée sur ${headerText(input.siteName)} pour être prévenu(e) quand l'offre « ${title} » (${headerText(input.offer.reference)}) sera de nouveau disponible.`,
    confirmLabel: "Confirmer mon alerte",
    days: UNCONFIRMED_ALERT_DAYS,
    confirmUrl: input.confirmUrl,
    unsubscribeUrl: input.unsubscribeUrl,
  });
}

/** The one mail of a confirmed alert: the offer is deliverable again, its price and its link. */
export function renderAlertAvailableMail(input: {
  offer: AlertMailOffer & { price: string; delivery: string };
  offerUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const title = headerText(input.offer.title);
  const reference = headerText(input.offer.reference);
  const done = "Votre alerte est terminée : vous ne recevrez plus de message à son sujet.";
  return subscriptionMail({
    subject: `De nouveau disponible : ${title}`,
    text: [
      `L'offre « ${title} » (${reference}) est de nouveau disponible : ${input.offer.delivery}.`,
      `Prix : ${input.offer.price}`,
      "",
      input.offerUrl,
      "",
      done,
    ],
    html: `<p>L'offre « ${escapeHtml(title)} » (${escapeHtml(reference)}) est de nouveau disponible : ${escapeHtml(input.offer.delivery)}.</p>
<p>Prix : <strong>${escapeHtml(input.offer.price)}</strong></p>
<p><a href="${escapeHtml(input.offerUrl)}">Voir l'offre</a></p>
<p>${done}</p>`,
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
