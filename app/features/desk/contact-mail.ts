import { formatDateTime } from "~/lib/format";
import { monthlyAlternativeLabel, monthlyLabel, type Pricing } from "~/lib/money";
import { configurationLines, type ConfigurationSnapshot } from "~/lib/offer-options";
import { companyLine } from "~/lib/siren";
import {
  contactAdminUrl,
  escapeHtml,
  headerText,
  type RenderedMail,
} from "~/features/mail/mail-text";

/** What the sales team's notification says about one contact request, read when it is sent. */
export type ContactMailData = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  company?: string | null;
  siren?: string | null;
  message: string;
  createdAt: Date;
  /** The current offer (with its price), or the snapshot of a deleted one (no price), or none. */
  offer: { title: string; reference: string; price: string | null } | null;
  /** The configuration chosen on the offer page (issue 21), as it was when sent. */
  configuration?: ConfigurationSnapshot | null;
};

/** The offer with its price as the site shows it (PRICE_DISPLAY first, the other figure after). */
function offerLine(offer: ContactMailData["offer"], pricing: Pricing): string {
  if (!offer) return "Demande générale";
  const name = `${offer.title} (${offer.reference})`;
  return offer.price === null
    ? `${name}, offre supprimée depuis`
    : `${name}, ${monthlyLabel(offer.price, pricing)} (${monthlyAlternativeLabel(offer.price, pricing)})`;
}

/** Subject, text and HTML parts of the notification of a new contact request (issue 10). */
export function renderContactNotification(
  data: ContactMailData,
  baseUrl: string,
  pricing: Pricing,
): RenderedMail {
  const name = headerText(data.name) || "(sans nom)";
  const reference = data.offer ? headerText(data.offer.reference) : "";
  const subject = `Nouvelle demande de contact : ${name}${reference ? ` (${reference})` : ""}`;
  const url = contactAdminUrl(baseUrl, data.id);
  const date = formatDateTime(data.createdAt);
  const phone = data.phone ?? "non renseigné";
  const company = companyLine(data.company ?? null, data.siren ?? null);
  const offer = offerLine(data.offer, pricing);
  const configuration = data.configuration ? configurationLines(data.configuration) : [];
  // Line breaks as the visitor typed them, whatever their kind.
  const message = data.message.replace(/\r\n?/g, "\n");

  const text = [
    `Nouvelle demande de contact reçue le ${date}.`,
    "",
    `Nom : ${data.name}`,
    `E-mail : ${data.email}`,
    `Téléphone : ${phone}`,
    ...(company ? [`Société : ${company}`] : []),
    `Offre : ${offer}`,
    ...(configuration.length ? ["", "Configuration choisie :", ...configuration] : []),
    "",
    "Message :",
    message,
    "",
    `Voir la demande : ${url}`,
    `Répondre à ce mail écrit à ${data.email}.`,
    "",
  ].join("\n");

  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${label}</th><td style="padding:4px 0">${value}</td></tr>`;
  const email = escapeHtml(data.email);
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<p>Nouvelle demande de contact reçue le ${escapeHtml(date)}.</p>
<table role="presentation" cellpadding="0" cellspacing="0">
${row("Nom", escapeHtml(data.name))}
${row("E-mail", `<a href="mailto:${email}">${email}</a>`)}
${row("Téléphone", escapeHtml(phone))}
${company ? row("Société", escapeHtml(company)) : ""}
${row("Offre", escapeHtml(offer))}
${configuration.length ? row("Configuration choisie", configuration.map(escapeHtml).join("<br>\n")) : ""}
</table>
<p><strong>Message :</strong></p>
<p style="white-space:pre-wrap">${escapeHtml(message).replace(/\n/g, "<br>\n")}</p>
<p><a href="${escapeHtml(url)}">Voir la demande dans l'administration</a></p>
<p style="color:#555;font-size:13px">Répondre à ce mail écrit à ${email}.</p>
</body>
</html>
`;
  return { subject, text, html };
}

/** Who the visitor can reach, as the acknowledgement states it. */
export type AcknowledgementContact = {
  name: string;
  email: string;
  phone: string;
  baseUrl: string;
  /** The totals as the visitor read them on the site (PRICE_DISPLAY). */
  pricing: Pricing;
  /** `Ma demande` (issue 42): the request's secret page, drawn as the mail leaves. */
  followUrl?: string;
};

const FOLLOW_TEXT = "Suivre votre demande (statut, devis, échanges) :";
const FOLLOW_NOTE =
  "Ce lien est personnel : ne le transférez pas. Vous pourrez en demander un nouveau sur le site.";

/**
 * What the acknowledgement may say: only what the site itself knows about the request. The name,
 * phone and message typed are left out of the type, so that no change can mail them to an address
 * anyone may type (issue 28: the form was a relay for a stranger's text, signed by our domain).
 */
export type AcknowledgementData = Pick<ContactMailData, "createdAt" | "offer" | "configuration">;

/** Narrows the request read for the mails to what the acknowledgement may carry. */
export function acknowledgementData(data: ContactMailData): AcknowledgementData {
  return { createdAt: data.createdAt, offer: data.offer, configuration: data.configuration };
}

/**
 * The visitor's acknowledgement of their request (issue 22): the reference to quote, the date,
 * the offer and configuration as the site recorded them, and how to reach the team. It repeats
 * nothing the visitor typed (issue 28): whoever typed the address, its owner reads only our text.
 */
export function renderContactAcknowledgement(
  data: AcknowledgementData,
  reference: string,
  contact: AcknowledgementContact,
): RenderedMail {
  const site = headerText(contact.name);
  const subject = `${site} : votre demande ${reference} a bien été reçue`;
  const date = formatDateTime(data.createdAt);
  const offer = data.offer ? `${data.offer.title} (${data.offer.reference})` : "Demande générale";
  // The configuration as it was sent (issue 21): what the team will quote.
  const configuration = data.configuration
    ? configurationLines(data.configuration, contact.pricing)
    : [];
  const unrepeated =
    "Par sécurité, ce message ne reprend pas ce que vous avez saisi ; notre équipe l'a bien reçu.";
  const notYou = `Vous recevez ce message parce que cette adresse a été saisie dans le formulaire de contact de ${site}. Si ce n'est pas vous, ignorez-le.`;
  const text = [
    "Bonjour,",
    "",
    `Nous avons bien reçu votre demande du ${date}. Notre équipe commerciale vous répond dans les plus brefs délais.`,
    "",
    `Référence : ${reference} (à rappeler dans vos échanges)`,
    "",
    `Offre : ${offer}`,
    ...(configuration.length ? ["Configuration choisie :", ...configuration] : []),
    "",
    ...(contact.followUrl ? [`${FOLLOW_TEXT} ${contact.followUrl}`, FOLLOW_NOTE, ""] : []),
    unrepeated,
    "",
    `Nous contacter : ${contact.email} · ${contact.phone} · ${contact.baseUrl}`,
    "",
    notYou,
    "",
  ].join("\n");
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${label}</th><td style="padding:4px 0">${value}</td></tr>`;
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<p>Bonjour,</p>
<p>Nous avons bien reçu votre demande du ${escapeHtml(date)}. Notre équipe commerciale vous répond dans les plus brefs délais.</p>
<p>Référence : <strong>${escapeHtml(reference)}</strong> (à rappeler dans vos échanges)</p>
<table role="presentation" cellpadding="0" cellspacing="0">
${row("Offre", escapeHtml(offer))}
${configuration.length ? `${row("Configuration choisie", configuration.map(escapeHtml).join("<br>\n"))}\n` : ""}</table>
${contact.followUrl ? `<p><a href="${escapeHtml(contact.followUrl)}">${escapeHtml(FOLLOW_TEXT.replace(/ :$/, ""))}</a><br><span style="color:#555;font-size:13px">${escapeHtml(FOLLOW_NOTE)}</span></p>\n` : ""}<p>${escapeHtml(unrepeated)}</p>
<p>Nous contacter : <a href="mailto:${escapeHtml(contact.email)}">${escapeHtml(contact.email)}</a> · ${escapeHtml(contact.phone)} · <a href="${escapeHtml(contact.baseUrl)}">${escapeHtml(contact.baseUrl)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(notYou)}</p>
</body>
</html>
`;
  return { subject, text, html };
}
