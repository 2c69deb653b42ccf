import { formatDateTime } from "./format";
import { formatMonthlyPrice } from "./money";
import { configurationLines, type ConfigurationSnapshot } from "./offer-options";

/** What the sales team's notification says about one contact request, read when it is sent. */
export type ContactMailData = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  createdAt: Date;
  /** The current offer (with its price), or the snapshot of a deleted one (no price), or none. */
  offer: { title: string; reference: string; price: string | null } | null;
  /** The configuration chosen on the offer page (issue 21), as it was when sent. */
  configuration?: ConfigurationSnapshot | null;
};

export type RenderedMail = { subject: string; text: string; html: string };

/**
 * One line for a header: control characters (CR/LF above all, which would start a new header in
 * a hand-built message) become spaces. Nodemailer encodes headers too; this keeps the subject
 * readable and single-line whatever a restored or hand-edited row holds.
 */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Absolute address of the request's admin page. */
export function contactAdminUrl(baseUrl: string, id: number): string {
  return `${baseUrl.replace(/\/+$/, "")}/admin/contacts/${id}`;
}

function offerLine(offer: ContactMailData["offer"]): string {
  if (!offer) return "Demande générale";
  const name = `${offer.title} (${offer.reference})`;
  return offer.price === null
    ? `${name}, offre supprimée depuis`
    : `${name}, ${formatMonthlyPrice(offer.price)} HT`;
}

/** Subject, text and HTML parts of the notification of a new contact request (issue 10). */
export function renderContactNotification(data: ContactMailData, baseUrl: string): RenderedMail {
  const name = headerText(data.name) || "(sans nom)";
  const reference = data.offer ? headerText(data.offer.reference) : "";
  const subject = `Nouvelle demande de contact : ${name}${reference ? ` (${reference})` : ""}`;
  const url = contactAdminUrl(baseUrl, data.id);
  const date = formatDateTime(data.createdAt);
  const phone = data.phone ?? "non renseigné";
  const offer = offerLine(data.offer);
  const configuration = data.configuration ? configurationLines(data.configuration) : [];
  // Line breaks as the visitor typed them, whatever their kind.
  const message = data.message.replace(/\r\n?/g, "\n");

  const text = [
    `Nouvelle demande de contact reçue le ${date}.`,
    "",
    `Nom : ${data.name}`,
    `E-mail : ${data.email}`,
    `Téléphone : ${phone}`,
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
