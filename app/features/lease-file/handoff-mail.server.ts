import { ownerOrTeam } from "~/features/mail/mail-renderer.server";
import type { SendMailOptions } from "nodemailer";
import { contactAdminUrl, paragraphsMail } from "~/features/mail/mail-text";
import { contactReference } from "~/platform/contact-reference";
import { formatDateTime } from "~/lib/dates";
import { formatCents, toCents } from "~/lib/money";
import { formatSiren } from "~/lib/siren";
import type { Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import type { MailOutboxRow } from "~/platform/schema.server";
import { signedDocumentOf } from "~/platform/signed-documents.server";
import { siteConfig } from "~/platform/site.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { buildHandOffArchive } from "./handoff-archive.server";

// The hand-off's mails (issue 41): the archive to the financer, rendered as it leaves (the
// archive built again then, the same bytes as the request page's download), and the owner's
// notice of the signed delivery report.

const MB = (bytes: number) =>
  new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 }).format(bytes / 1_000_000);

const euros = (value: string | null) => (value === null ? null : formatCents(toCents(value)));

/** What the hand-off's mails say of the request and its LOA file (lease-file-mail.server.ts). */
type HandOffRequest = {
  id: number;
  createdAt: Date;
  name: string;
  company: string | null;
  owner: string | null;
  sentTo: string | null;
  quoteId: number | null;
  signedAt: Date | null;
};

/** The hand-off's mail of that kind about a request with its LOA file (read by the caller). */
export async function handOffMailMessage(
  kind: MailOutboxRow["kind"],
  request: HandOffRequest,
  common: Pick<SendMailOptions, "from" | "messageId" | "headers">,
  settings: { baseUrl: string; to: string[] },
  database: Database,
): Promise<SendMailOptions | { failed: string }> {
  const reference = contactReference(request.id, request.createdAt);
  const site = siteConfig();
  if (kind === MAIL_KINDS.deliveryReportSigned) {
    const signed = request.quoteId
      ? await signedDocumentOf("delivery_report", request.quoteId, database)
      : undefined;
    if (!signed || !request.signedAt) return { failed: "Le PV de livraison n'est pas signé" };
    const recipients = ownerOrTeam(request.owner, settings.to);
    if ("failed" in recipients) return recipients;
    const { to } = recipients;
    const mail = paragraphsMail(
      `PV de livraison signé : ${reference} (${request.company ?? request.name})`,
      [
        `Le client a signé en ligne le procès-verbal de livraison de la demande ${reference} le ${formatDateTime(signed.signedAt)}, par ${signed.acceptance.name} (${signed.acceptance.role}).`,
        "La demande passe à « Livré » ; le PV signé se télécharge depuis la demande.",
      ],
      { url: contactAdminUrl(settings.baseUrl, request.id), text: "Voir la demande" },
    );
    return { ...common, to, ...mail };
  }
  if (!request.sentTo) return { failed: "Aucune adresse du financeur" };
  const built = await buildHandOffArchive(request.id, database);
  if (built.kind !== "built") return { failed: "Le dossier n'est plus complet" };
  const { archive } = built;
  const { summary } = archive;
  const attach = archive.zip.length <= env().LEASE_ARCHIVE_MAIL_MAX_BYTES;
  const company = summary.customer.company ?? request.name;
  const siren = summary.customer.siren ? ` (SIREN ${formatSiren(summary.customer.siren)})` : "";
  const { lease } = summary;
  const mail = paragraphsMail(
    `Dossier de financement LOA : ${company}${siren}, devis ${summary.quote.number}`,
    [
      "Bonjour,",
      `Voici le dossier de location avec option d'achat de ${company}${siren}, dirigeant signataire ${summary.customer.manager.name} (${summary.customer.manager.role}), pour le devis ${summary.quote.number} accepté en ligne le ${formatDateTime(new Date(summary.quote.acceptedAt))}.`,
      [
        `Matériel : ${summary.equipment[0]?.label ?? ""}`,
        lease.amountFinancedHt ? `montant financé ${euros(lease.amountFinancedHt)} HT` : null,
        lease.durationMonths ? `${lease.durationMonths} mois` : null,
        `loyer ${euros(lease.monthlyRentHt)} HT par mois`,
        lease.purchaseOptionHt ? `option d'achat ${euros(lease.purchaseOptionHt)} HT` : null,
      ]
        .filter(Boolean)
        .join(", ") + ".",
      attach
        ? `L'archive jointe (${archive.fileName}) contient le devis signé, ${summary.documents.length} pièce(s) et une synthèse (synthese.pdf, synthese.json), chacun avec son empreinte SHA-256.`
        : `L'archive du dossier (${MB(archive.zip.length)} Mo) dépasse la taille qu'un e-mail peut porter : elle n'est pas jointe. Nous vous la transmettons par un autre moyen ; répondez à ce message si vous ne l'avez pas reçue.`,
      `SHA-256 de l'archive : ${archive.sha256}`,
      `Référence du dossier : ${reference}`,
      `${site.name} · ${site.email} · ${site.phone}`,
    ],
  );
  return {
    ...common,
    to: request.sentTo,
    replyTo: request.owner ?? site.email,
    ...mail,
    ...(attach
      ? {
          attachments: [
            {
              filename: archive.fileName,
              content: Buffer.from(archive.zip),
              contentType: "application/zip",
            },
          ],
        }
      : {}),
  };
}
