import { ALERT_PRIVACY_NOTICE, UNCONFIRMED_ALERT_DAYS } from "./alerts";
import { escapeHtml, headerText, type RenderedMail } from "~/features/mail/mail-text";

// The two mails of an alert (issue 30). Nothing the visitor typed is in them (their address is
// the recipient only): the offer's title, reference, price and links are the site's own.

export type AlertMailOffer = { title: string; reference: string };

const STYLE = "font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111";

export function htmlDocument(subject: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="${STYLE}">
${body}
</body>
</html>
`;
}

/** Every alert or saved search mail's last lines: the one-click link and the privacy notice. */
export function unsubscribeFooter(unsubscribeUrl: string, notice: string = ALERT_PRIVACY_NOTICE) {
  const url = escapeHtml(unsubscribeUrl);
  return {
    text: ["", "--", `Se désinscrire (un clic, sans connexion) : ${unsubscribeUrl}`, notice],
    html: `<p style="color:#555;font-size:13px">${escapeHtml(notice)} <a href="${url}">Se désinscrire</a></p>`,
  };
}

/** The double opt-in mail: a link to confirm (valid 7 days), and one to unsubscribe. */
export function renderAlertConfirmationMail(input: {
  offer: AlertMailOffer;
  siteName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const site = headerText(input.siteName);
  const title = headerText(input.offer.title);
  const reference = headerText(input.offer.reference);
  const subject = `Confirmez votre alerte : ${title}`;
  const footer = unsubscribeFooter(input.unsubscribeUrl);
  const text = [
    "Bonjour,",
    "",
    `Une alerte a été demandée sur ${site} pour être prévenu(e) quand l'offre « ${title} » (${reference}) sera de nouveau disponible.`,
    "",
    `Pour la confirmer, ouvrez ce lien (valable ${UNCONFIRMED_ALERT_DAYS} jours) :`,
    input.confirmUrl,
    "",
    `Sans confirmation, votre adresse est effacée dans ${UNCONFIRMED_ALERT_DAYS} jours et vous ne recevrez rien d'autre. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.`,
    ...footer.text,
    "",
  ].join("\n");
  const confirm = escapeHtml(input.confirmUrl);
  const html = htmlDocument(
    subject,
    `<p>Bonjour,</p>
<p>Une alerte a été demandée sur ${escapeHtml(site)} pour être prévenu(e) quand l'offre « ${escapeHtml(title)} » (${escapeHtml(reference)}) sera de nouveau disponible.</p>
<p><a href="${confirm}">Confirmer mon alerte</a></p>
<p>Ce lien est valable ${UNCONFIRMED_ALERT_DAYS} jours. S'il ne s'ouvre pas, copiez cette adresse dans votre navigateur :<br>
<span style="word-break:break-all">${confirm}</span></p>
<p>Sans confirmation, votre adresse est effacée dans ${UNCONFIRMED_ALERT_DAYS} jours et vous ne recevrez rien d'autre. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.</p>
${footer.html}`,
  );
  return { subject, text, html };
}

/** The one mail of a confirmed alert: the offer is deliverable again, its price and its link. */
export function renderAlertAvailableMail(input: {
  offer: AlertMailOffer & { price: string; delivery: string };
  offerUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const title = headerText(input.offer.title);
  const reference = headerText(input.offer.reference);
  const subject = `De nouveau disponible : ${title}`;
  const footer = unsubscribeFooter(input.unsubscribeUrl);
  const text = [
    "Bonjour,",
    "",
    `L'offre « ${title} » (${reference}) est de nouveau disponible : ${input.offer.delivery}.`,
    `Prix : ${input.offer.price}`,
    "",
    input.offerUrl,
    "",
    "Votre alerte est terminée : vous ne recevrez plus de message à son sujet.",
    ...footer.text,
    "",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Bonjour,</p>
<p>L'offre « ${escapeHtml(title)} » (${escapeHtml(reference)}) est de nouveau disponible : ${escapeHtml(input.offer.delivery)}.</p>
<p>Prix : <strong>${escapeHtml(input.offer.price)}</strong></p>
<p><a href="${escapeHtml(input.offerUrl)}">Voir l'offre</a></p>
<p>Votre alerte est terminée : vous ne recevrez plus de message à son sujet.</p>
${footer.html}`,
  );
  return { subject, text, html };
}
