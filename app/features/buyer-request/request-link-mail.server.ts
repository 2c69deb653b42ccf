// The mail of `Retrouver ma demande` (issue 42): a new link to the request's page, drawn as the mail
// leaves, sent to the request's own address only. It says nothing the visitor typed.
import { eq } from "drizzle-orm";
import { contactReference } from "~/platform/contact-reference";
import { escapeHtml, headerText } from "~/features/mail/mail-text";
import { contactRequests } from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import type { MailRenderer } from "~/features/mail/mail-renderer.server";
import { drawRequestLink, requestLinkPath } from "./request-link.server";

/** The outbox's renderer of a new `Ma demande` link (app/mail-kinds.server.ts). */
export const prepareRequestLinkMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) => {
  if (row.contactRequestId === null) return { failed: "La demande n'existe plus" };
  const [request] = await database
    .select({ email: contactRequests.email, createdAt: contactRequests.createdAt })
    .from(contactRequests)
    .where(eq(contactRequests.id, row.contactRequestId));
  const token = request && (await drawRequestLink(row.contactRequestId, database));
  if (!request || !token) return { failed: "La demande n'existe plus" };
  const site = siteConfig();
  const reference = contactReference(row.contactRequestId, request.createdAt);
  const url = `${settings.baseUrl.replace(/\/+$/, "")}${requestLinkPath(token)}`;
  const subject = `${headerText(site.name)} : votre lien pour suivre la demande ${reference}`;
  const lines = [
    "Bonjour,",
    "",
    `Voici un nouveau lien pour suivre votre demande ${reference} (statut, devis, échanges) :`,
    url,
    "",
    "Ce lien est personnel : ne le transférez pas. Les liens envoyés avant celui-ci ne fonctionnent plus.",
    "",
    `Vous n'avez rien demandé ? Ignorez ce message, ou écrivez-nous à ${site.email}.`,
    "",
  ];
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<p>Bonjour,</p>
<p>Voici un nouveau lien pour suivre votre demande <strong>${escapeHtml(reference)}</strong> (statut, devis, échanges) :</p>
<p><a href="${escapeHtml(url)}">Suivre ma demande</a></p>
<p style="color:#555;font-size:13px">Ce lien est personnel : ne le transférez pas. Les liens envoyés avant celui-ci ne fonctionnent plus.</p>
<p style="color:#555;font-size:13px">Vous n'avez rien demandé ? Ignorez ce message, ou écrivez-nous à ${escapeHtml(site.email)}.</p>
</body>
</html>
`;
  return {
    message: {
      from: settings.from,
      to: request.email,
      replyTo: site.email,
      subject,
      text: lines.join("\n"),
      html,
      messageId: `<contact-${row.contactRequestId}.mail-${row.id}@${messageDomain}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    },
    logged: { contactId: row.contactRequestId, attempts: row.attempts },
  };
};
