import {
  escapeHtml,
  mailDocument,
  paragraphsMail,
  requestLink,
  type RenderedMail,
} from "~/features/mail/mail-text";
import { formatDateTime } from "~/lib/dates";

// The mails of a sent quote (issue 29). To the buyer: only what the site itself writes (the
// number, the dates, the link); the quote, with what the request said, is the attached PDF that
// the salesperson chose to send. To the owner: the answer, as the buyer gave it.

export function renderQuoteSentMail(data: {
  number: string;
  validUntil: Date;
  url: string;
  siteName: string;
  contact: { email: string; phone: string };
}): RenderedMail {
  const subject = `Votre devis ${data.number} — ${data.siteName}`;
  const until = formatDateTime(data.validUntil);
  const text = [
    "Bonjour,",
    "",
    `Vous trouverez ci-joint notre devis ${data.number}, valable jusqu'au ${until}.`,
    "",
    "Pour l'accepter (bon pour accord) ou le refuser en ligne :",
    data.url,
    "",
    "Ce lien vous est personnel : ne le transférez pas.",
    `Une question ? ${data.contact.email} · ${data.contact.phone}`,
    "",
    data.siteName,
    "",
  ].join("\n");
  const url = escapeHtml(data.url);
  const html = mailDocument(
    subject,
    `<p>Bonjour,</p>
<p>Vous trouverez ci-joint notre devis <strong>${escapeHtml(data.number)}</strong>, valable jusqu'au ${escapeHtml(until)}.</p>
<p><a href="${url}">Consulter, accepter ou refuser le devis en ligne</a></p>
<p style="color:#555;font-size:13px">Ce lien vous est personnel : ne le transférez pas. Une question ? ${escapeHtml(data.contact.email)} · ${escapeHtml(data.contact.phone)}</p>
<p>${escapeHtml(data.siteName)}</p>`,
  );
  return { subject, text, html };
}

export type QuoteAnswerMailData = {
  requestId: number;
  number: string;
  customer: string;
  answer:
    | { kind: "accepted"; at: Date; name: string; role: string }
    | { kind: "declined"; at: Date; reason: string | null }
    | { kind: "reminder"; validUntil: Date }
    | { kind: "opened"; at: Date; validUntil: Date };
};

/** To the request's owner (or the team): the buyer's answer, first opening, or the reminder before expiry. */
export function renderQuoteOwnerMail(data: QuoteAnswerMailData, baseUrl: string): RenderedMail {
  const { answer } = data;
  const subject =
    answer.kind === "accepted"
      ? `Devis ${data.number} accepté`
      : answer.kind === "declined"
        ? `Devis ${data.number} refusé`
        : answer.kind === "opened"
          ? `Devis ${data.number} ouvert par le client`
          : `Devis ${data.number} sans réponse : il expire le ${formatDateTime(answer.validUntil)}`;
  const lines =
    answer.kind === "accepted"
      ? [
          `Le devis ${data.number} (${data.customer}) a été accepté en ligne le ${formatDateTime(answer.at)}`,
          `par ${answer.name}, ${answer.role} (bon pour accord, signature électronique simple).`,
        ]
      : answer.kind === "declined"
        ? [
            `Le devis ${data.number} (${data.customer}) a été refusé le ${formatDateTime(answer.at)}.`,
            `Motif : ${answer.reason ?? "non précisé"}`,
          ]
        : answer.kind === "opened"
          ? [
              `Le devis ${data.number} (${data.customer}) a été ouvert pour la première fois le ${formatDateTime(answer.at)}.`,
              `Il est valable jusqu'au ${formatDateTime(answer.validUntil)} : c'est un bon moment pour appeler.`,
            ]
          : [
              `Le devis ${data.number} (${data.customer}) n'a pas reçu de réponse.`,
              `Il expire le ${formatDateTime(answer.validUntil)} : une relance peut être utile.`,
            ];
  return paragraphsMail(subject, lines, requestLink(baseUrl, data.requestId));
}
