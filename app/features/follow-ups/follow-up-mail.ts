import {
  contactAdminUrl,
  escapeHtml,
  mailDocument,
  paragraphsMail,
  requestLink,
  type RenderedMail,
} from "~/features/mail/mail-text";
import { formatDateTime } from "~/lib/dates";

// The follow-ups' mails (issue 40), written for the salesperson who reads them on a phone: what
// to do, for whom, and the link to the request.

/** Why a request is on someone's list today, most pressing first. */
export type FollowUpReason =
  { kind: "late"; dueAt: Date } | { kind: "replied"; at: Date } | { kind: "due"; on: string };

const DAY = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  weekday: "long",
  day: "numeric",
  month: "long",
});

/** '2026-11-30' → 'lundi 30 novembre' (noon UTC: the same day in Paris all year). */
export function dayLabel(day: string): string {
  return DAY.format(new Date(`${day}T12:00:00Z`));
}

/** One reason as the list and the digest say it. */
export function reasonLabel(reason: FollowUpReason): string {
  if (reason.kind === "late")
    return `Sans réponse depuis le ${formatDateTime(reason.dueAt)} (délai dépassé)`;
  if (reason.kind === "replied") return `Le client a répondu le ${formatDateTime(reason.at)}`;
  return `À relancer le ${dayLabel(reason.on)}`;
}

export type LateMailData = {
  requestId: number;
  reference: string;
  customer: string;
  createdAt: Date;
  dueAt: Date;
};

/** To the request's owner (or the team): its first answer is late. */
export function renderLateMail(data: LateMailData, baseUrl: string): RenderedMail {
  const subject = `Demande ${data.reference} sans réponse : délai dépassé`;
  const lines = [
    `La demande ${data.reference} (${data.customer}), reçue le ${formatDateTime(data.createdAt)}, attendait une première réponse avant le ${formatDateTime(data.dueAt)}.`,
    "Elle n'en a pas encore reçu.",
  ];
  return paragraphsMail(subject, lines, requestLink(baseUrl, data.requestId));
}

export type DigestItem = {
  id: number;
  reference: string;
  customer: string;
  reasons: FollowUpReason[];
};

/** To an account, in the morning: what it must do today, late first. */
export function renderDigestMail(
  data: { day: string; items: DigestItem[] },
  baseUrl: string,
): RenderedMail {
  const count = data.items.length;
  const subject = `Vos relances du ${dayLabel(data.day)} : ${count} demande${count > 1 ? "s" : ""}`;
  const listUrl = `${baseUrl.replace(/\/+$/, "")}/admin/relances`;
  const text = [
    `Ce qui vous attend aujourd'hui (${count}) :`,
    "",
    ...data.items.flatMap((item) => [
      `${item.reference} — ${item.customer}`,
      ...item.reasons.map((reason) => `  · ${reasonLabel(reason)}`),
      `  ${contactAdminUrl(baseUrl, item.id)}`,
    ]),
    "",
    `Mes relances : ${listUrl}`,
    "",
  ].join("\n");
  const html = mailDocument(
    subject,
    `<p>Ce qui vous attend aujourd'hui (${count}) :</p>
<ul>
${data.items
  .map(
    (item) =>
      `<li><a href="${escapeHtml(contactAdminUrl(baseUrl, item.id))}">${escapeHtml(item.reference)} — ${escapeHtml(item.customer)}</a><br>${item.reasons.map((reason) => escapeHtml(reasonLabel(reason))).join("<br>")}</li>`,
  )
  .join("\n")}
</ul>
<p><a href="${escapeHtml(listUrl)}">Ouvrir Mes relances</a></p>`,
  );
  return { subject, text, html };
}
