import type { SendMailOptions } from "nodemailer";
import { and, eq, lt, sql } from "drizzle-orm";
import { contactAdminUrl, paragraphsMail } from "~/features/mail/mail-text";
import { selectRequestsWithOwner } from "~/platform/contact-columns.server";
import { contactReference } from "~/platform/contact-reference";
import { parisDay, parisParts } from "~/lib/dates";
import { companyLine } from "~/lib/siren";
import { now } from "~/platform/clock.server";
import { db, type Database } from "~/platform/db.server";
import {
  contactRequests,
  leaseFiles,
  mailOutbox,
  quotes,
  type MailOutboxRow,
} from "~/platform/schema.server";
import { siteConfig } from "~/platform/site.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { type MailRenderer, ownerOrTeam, renderedMail } from "~/features/mail/mail-renderer.server";
import { handOffMailMessage } from "./handoff-mail.server";
import { leaseFileOf } from "./lease-file.server";

// The LOA file's mails (issue 41): to the owner (or the team) when the file is complete; to the
// buyer, at most once a day, what is still missing. Rendered when they leave, from the file then.

/** The outbox's renderer of the LOA file's kinds, the hand-off's too (app/mail-kinds.server.ts). */
export const prepareLeaseFileMail: MailRenderer = async (
  row,
  { settings, messageDomain, database },
) =>
  renderedMail(await leaseFileMailMessage(row, settings, messageDomain, database), {
    kind: row.kind,
  });

/** The hour (Paris) from which the buyers' reminders leave: not in the middle of the night. */
const REMINDER_HOUR = 9;

/**
 * The buyers whose file is still incomplete the day after it opened are told what is missing,
 * once a day (missing_reminded_on is claimed in the statement that picks them). Returns how many.
 */
export async function queueMissingDocumentReminders(
  at: Date = now(),
  database: Database = db(),
): Promise<number> {
  if (Number(parisParts(at).hour) < REMINDER_HOUR) return 0;
  const today = parisDay(at);
  return database.transaction(async (tx) => {
    const due = await tx
      .update(leaseFiles)
      .set({ missingRemindedOn: today })
      .where(
        and(
          sql`${leaseFiles.missingRemindedOn} is distinct from ${today}`,
          lt(leaseFiles.openedAt, new Date(at.getTime() - 20 * 3_600_000)),
          sql`exists (select 1 from ${contactRequests} where ${contactRequests.id} = ${leaseFiles.contactRequestId} and ${contactRequests.status} = 'file_incomplete')`,
        ),
      )
      .returning({ contactRequestId: leaseFiles.contactRequestId });
    if (due.length === 0) return 0;
    await tx.insert(mailOutbox).values(
      due.map((file) => ({
        contactRequestId: file.contactRequestId,
        kind: MAIL_KINDS.leaseFileMissing,
      })),
    );
    await notifyMailWorkers(tx);
    return due.length;
  });
}

type Settings = { baseUrl: string; to: string[]; from: SendMailOptions["from"] };

/** The request an LOA file's mail is about, with its owner, its file's hand-off and quote number. */
async function fileRequest(id: number | null, database: Database) {
  if (id === null) return undefined;
  const [request] = await selectRequestsWithOwner(
    {
      id: contactRequests.id,
      name: contactRequests.name,
      email: contactRequests.email,
      company: contactRequests.company,
      createdAt: contactRequests.createdAt,
      status: contactRequests.status,
      hasFile: sql<boolean>`${leaseFiles.contactRequestId} is not null`,
      sentTo: leaseFiles.financerSentTo,
      quoteId: leaseFiles.quoteId,
      signedAt: leaseFiles.deliverySignedAt,
      number: quotes.number,
    },
    database,
  )
    .leftJoin(leaseFiles, eq(leaseFiles.contactRequestId, contactRequests.id))
    .leftJoin(quotes, eq(quotes.id, leaseFiles.quoteId))
    .where(eq(contactRequests.id, id));
  return request;
}

export async function leaseFileMailMessage(
  row: MailOutboxRow,
  settings: Settings,
  messageDomain: string,
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const request = await fileRequest(row.contactRequestId, database);
  const common = {
    from: settings.from,
    messageId: `<lease-file-${row.id}@${messageDomain}>`,
    headers: { "Auto-Submitted": "auto-generated" },
  };
  if (row.kind === MAIL_KINDS.leaseFileFinancer || row.kind === MAIL_KINDS.deliveryReportSigned) {
    if (!request?.hasFile) return { failed: "Le dossier n'existe plus" };
    return handOffMailMessage(row.kind, request, common, settings, database);
  }
  const file = request ? await leaseFileOf(request.id, database) : undefined;
  if (!request || !file) return { failed: "Le dossier n'existe plus" };
  const reference = contactReference(request.id, request.createdAt);
  const customer = companyLine(request.company, null) ?? request.name;
  if (row.kind === MAIL_KINDS.leaseFileComplete) {
    if (!file.complete) return { failed: "Le dossier n'est plus complet" };
    const mail = paragraphsMail(
      `Dossier LOA complet : ${reference} (${customer})`,
      [
        `Le client a fourni toutes les pièces du dossier de financement de la demande ${reference}${request.number ? ` (devis ${request.number})` : ""}.`,
        "Vérifiez-les, puis transmettez le dossier au financeur depuis la demande.",
      ],
      { url: contactAdminUrl(settings.baseUrl, request.id), text: "Voir la demande" },
    );
    const recipients = ownerOrTeam(request.owner, settings.to);
    if ("failed" in recipients) return recipients;
    const { to } = recipients;
    return { ...common, to, ...mail };
  }
  if (request.status !== "file_incomplete" || file.missing.length === 0) {
    return { failed: "Plus rien ne manque au dossier" };
  }
  const site = siteConfig();
  const mail = paragraphsMail(`Votre dossier de financement : pièces à fournir (${reference})`, [
    "Bonjour,",
    `Pour que notre partenaire financeur étudie votre location${request.number ? ` (devis ${request.number})` : ""}, il manque encore :`,
    ...file.missing.map((title) => `· ${title}`),
    "Déposez-les depuis le lien de votre devis, reçu par e-mail (« Votre devis … »), rubrique « Votre dossier de financement ».",
    `Une question ? ${site.email} · ${site.phone}`,
    site.name,
  ]);
  return { ...common, to: request.email, replyTo: site.email, ...mail };
}
