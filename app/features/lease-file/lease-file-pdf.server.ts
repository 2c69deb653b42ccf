import { formatDateTime, formatParisDay } from "~/lib/dates";
import { formatFileSize } from "~/lib/attachments";
import { formatCents, toCents } from "~/lib/money";
import { formatSiren } from "~/lib/siren";
import type { DeliveredItem } from "~/platform/schema.server";
import {
  openPdf,
  PDF_LAYOUT,
  rowRule,
  tableHeading,
  type Doc,
} from "~/features/quotes/quote-pdf.server";
import type { FinancerSummary } from "./financer-summary";

// The LOA file's two documents laid out like the quote (issue 41): the summary handed to the
// financer (synthese.pdf, beside synthese.json) and the delivery report the buyer signs.

const { page: PAGE, width: WIDTH, color: COLOR } = PDF_LAYOUT;
const LEFT = PAGE.margin;

function heading(doc: Doc, text: string) {
  doc.moveDown(0.8);
  doc.font("bold").fontSize(11.5).fillColor(COLOR.accent).text(text, LEFT, doc.y, { width: WIDTH });
  doc.moveDown(0.3);
}

/** Label and value, one pair a line. */
function pairs(doc: Doc, rows: [string, string][]) {
  for (const [label, value] of rows) {
    const top = doc.y;
    doc.font("regular").fontSize(9.5).fillColor(COLOR.muted).text(label, LEFT, top, { width: 170 });
    const labelBottom = doc.y;
    doc.fillColor(COLOR.text).text(value, LEFT + 175, top, { width: WIDTH - 175 });
    doc.y = Math.max(labelBottom, doc.y) + 2;
  }
}

/** The title block: who writes on the left, what and when on the right. */
function header(doc: Doc, left: { name: string; lines: string[] }, title: string, right: string[]) {
  const half = WIDTH / 2;
  const top = doc.y;
  doc.font("bold").fontSize(13).fillColor(COLOR.text).text(left.name, LEFT, top, { width: half });
  doc.font("regular").fontSize(8.5).fillColor(COLOR.muted);
  for (const line of left.lines) doc.text(line, { width: half - 10 });
  const leftBottom = doc.y;
  doc.font("bold").fontSize(17).fillColor(COLOR.accent);
  doc.text(title, LEFT + half, top, { width: half, align: "right" });
  doc.font("regular").fontSize(9.5).fillColor(COLOR.text);
  for (const line of right) doc.text(line, { width: half, align: "right" });
  doc.y = Math.max(leftBottom, doc.y) + 6;
}

const money = (value: string | null) =>
  value === null ? "Non indiqué" : formatCents(toCents(value));

/** synthese.pdf: the summary as the financer reads it, the same facts as synthese.json. */
export function summaryPdf(summary: FinancerSummary): Promise<Buffer> {
  const preparedAt = new Date(summary.preparedAt);
  const { doc, bytes } = openPdf({
    Title: `Dossier de financement ${summary.reference}`,
    Author: summary.seller.legalName,
    CreationDate: preparedAt,
  });
  header(
    doc,
    { name: summary.seller.legalName, lines: [`SIREN ${formatSiren(summary.seller.siren)}`] },
    "Dossier de financement",
    [
      `Location avec option d'achat`,
      `Dossier ${summary.reference}`,
      `Pour ${summary.financer}`,
      `Préparé le ${formatDateTime(preparedAt)}`,
    ],
  );
  const { customer, lease } = summary;
  heading(doc, "Le client");
  pairs(doc, [
    ["Société", customer.company ?? "Non indiquée"],
    ["SIREN", customer.siren ? formatSiren(customer.siren) : "Non indiqué"],
    ["Dirigeant signataire", `${customer.manager.name} (${customer.manager.role})`],
    ["E-mail", customer.email],
  ]);
  heading(doc, "Le matériel");
  pairs(
    doc,
    summary.equipment.map((line): [string, string] => [line.label, line.value]),
  );
  heading(doc, "La location");
  pairs(doc, [
    ["Montant financé HT", money(lease.amountFinancedHt)],
    ["Durée", lease.durationMonths === null ? "Non indiquée" : `${lease.durationMonths} mois`],
    ["Coefficient", lease.coefficient ?? "Non indiqué (loyer saisi hors barème)"],
    ["Loyer mensuel HT", money(lease.monthlyRentHt)],
    ["Option d'achat HT", money(lease.purchaseOptionHt)],
    ["Coût total HT", money(lease.totalCostHt)],
    ["Mise en service HT", money(lease.setupFeeHt)],
  ]);
  heading(doc, "Le devis signé");
  pairs(doc, [
    ["Devis", summary.quote.number],
    ["Bon pour accord en ligne", formatDateTime(new Date(summary.quote.acceptedAt))],
    ["Fichier", summary.quote.file],
    ["SHA-256", summary.quote.sha256],
  ]);
  heading(doc, "Les pièces du dossier");
  for (const document of summary.documents) {
    pairs(doc, [
      [document.kind, `${document.file} (${formatFileSize(document.size)})`],
      ["SHA-256", document.sha256],
    ]);
    doc.moveDown(0.3);
  }
  doc.moveDown(1);
  doc.font("regular").fontSize(8).fillColor(COLOR.muted);
  doc.text(
    "Chiffres du devis accepté, tels que conservés à son acceptation. L'archive contient le PDF signé et chaque pièce reçue ; leurs empreintes SHA-256 permettent de vérifier qu'ils sont intacts. Les mêmes informations figurent dans synthese.json.",
    LEFT,
    doc.y,
    { width: WIDTH },
  );
  doc.end();
  return bytes;
}

/** What a delivery report states; the signer and the date are those of the signature. */
export type DeliveryReport = {
  seller: { name: string; lines: string[] };
  customer: { company: string | null; siren: string | null; email: string };
  quoteNumber: string;
  financer: string;
  items: DeliveredItem[];
  signer: { name: string; role: string };
  signedAt: Date;
};

export const DELIVERY_STATEMENT =
  "Je confirme avoir reçu ce matériel en bon état de fonctionnement";

/** The `PV de livraison` as signed online: the same bytes are kept and served afterwards. */
export function deliveryReportPdf(report: DeliveryReport): Promise<Buffer> {
  const { doc, bytes } = openPdf({
    Title: `Procès-verbal de livraison — devis ${report.quoteNumber}`,
    Author: report.seller.name,
    CreationDate: report.signedAt,
  });
  header(doc, report.seller, "Procès-verbal de livraison", [
    `Devis ${report.quoteNumber}`,
    `Signé le ${formatParisDay(report.signedAt)}`,
  ]);
  heading(doc, "Le client");
  pairs(doc, [
    ["Société", report.customer.company ?? "Non indiquée"],
    ["SIREN", report.customer.siren ? formatSiren(report.customer.siren) : "Non indiqué"],
    ["E-mail", report.customer.email],
    ["Financeur", report.financer],
  ]);
  heading(doc, "Le matériel livré");
  const columns = [
    { title: "Matériel", x: LEFT, width: WIDTH - 200 },
    { title: "N° de série", x: LEFT + WIDTH - 200, width: 200 },
  ];
  let y = tableHeading(doc, columns, doc.y);
  for (const item of report.items) {
    doc.font("regular").fontSize(9.5).fillColor(COLOR.text);
    doc.text(item.label, columns[0].x + 4, y, { width: columns[0].width - 8 });
    const bottom = doc.y;
    doc.text(item.serial, columns[1].x + 4, y, { width: columns[1].width - 8 });
    y = Math.max(bottom, doc.y) + 4;
    rowRule(doc, y);
    y += 5;
  }
  doc.y = y;
  heading(doc, "Réception");
  doc.font("regular").fontSize(10).fillColor(COLOR.text);
  doc.text(
    `${DELIVERY_STATEMENT}, conforme à la commande du devis ${report.quoteNumber}. La location commence à la date de ce procès-verbal.`,
    LEFT,
    doc.y,
    { width: WIDTH },
  );
  doc.moveDown(0.8);
  doc.font("bold").fillColor(COLOR.accent);
  doc.text(
    `Signé en ligne le ${formatDateTime(report.signedAt)} par ${report.signer.name} (${report.signer.role}) — signature électronique simple (règlement eIDAS).`,
    { width: WIDTH },
  );
  doc.end();
  return bytes;
}
