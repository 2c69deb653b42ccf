import type { SendMailOptions } from "nodemailer";
import { eq } from "drizzle-orm";
import { requestWithOwner } from "~/platform/contact-columns.server";
import { contactReference } from "~/platform/contact-reference";
import { parisDay } from "~/lib/dates";
import { companyLine } from "~/lib/siren";
import { now } from "~/platform/clock.server";
import type { Database } from "~/platform/db.server";
import { contactRequests, users, type MailOutboxRow } from "~/platform/schema.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { type MailRenderer, ownerOrTeam, renderedMail } from "~/features/mail/mail-renderer.server";
import { renderDigestMail, renderLateMail } from "./follow-up-mail";
import { followUpsOf } from "./follow-ups.server";

/** The outbox's renderer of the follow-ups' kinds (app/mail-kinds.server.ts). */
export const prepareFollowUpMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) =>
  renderedMail(await followUpMailMessage(row, settings, messageDomain, database), {
    kind: row.kind,
  });

type Settings = { baseUrl: string; to: string[]; from: SendMailOptions["from"] };

/**
 * A follow-up's mail, rendered when it leaves: the late notice to the request's owner (or the
 * team), the digest to its account (what is due then: a request answered meanwhile is not in it).
 */
export async function followUpMailMessage(
  row: MailOutboxRow,
  settings: Settings,
  messageDomain: string,
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const common = {
    from: settings.from,
    messageId: `<follow-up-${row.id}@${messageDomain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
  if (row.kind === MAIL_KINDS.followUpDigest) {
    const [account] =
      row.userId === null
        ? []
        : await database
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(eq(users.id, row.userId));
    if (!account) return { failed: "Le compte n'existe plus" };
    const at = now();
    const items = await followUpsOf(account.id, at, database);
    if (items.length === 0) return { failed: "Plus rien à relancer aujourd'hui" };
    const mail = renderDigestMail(
      {
        day: parisDay(at),
        items: items.map((item) => ({
          id: item.id,
          reference: item.reference,
          customer: companyLine(item.company, null) ?? item.name,
          reasons: item.reasons,
        })),
      },
      settings.baseUrl,
    );
    return {
      ...common,
      to: account.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    };
  }
  const request = await requestWithOwner(
    row.contactRequestId,
    {
      id: contactRequests.id,
      name: contactRequests.name,
      company: contactRequests.company,
      createdAt: contactRequests.createdAt,
      dueAt: contactRequests.firstResponseDueAt,
    },
    database,
  );
  if (!request?.dueAt) return { failed: "La demande n'existe plus" };
  const mail = renderLateMail(
    {
      requestId: request.id,
      reference: contactReference(request.id, request.createdAt),
      customer: companyLine(request.company, null) ?? request.name,
      createdAt: request.createdAt,
      dueAt: request.dueAt,
    },
    settings.baseUrl,
  );
  const recipients = ownerOrTeam(request.owner, settings.to);
  if ("failed" in recipients) return recipients;
  const { to } = recipients;
  return { ...common, to, subject: mail.subject, text: mail.text, html: mail.html };
}
