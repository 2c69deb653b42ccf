import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import type { QuoteDocument, QuoteFigure } from "~/lib/quote";
import { log } from "~/platform/log.server";

// Lays a quote (app/lib/quote.ts) out as an A4 PDF with pdfkit (docs/decisions/031). The font is
// DejaVu Sans from the dejavu-fonts-ttf package, read from node_modules at run time, embedded as
// a subset of the glyphs used: French accents, '€' and the narrow no-break spaces of fr-FR
// amounts render and extract as text. The fonts are parsed once per process (the parse is most
// of a document's time).

const resolve = createRequire(import.meta.url).resolve;
const FONT_FILES = {
  regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
} as const;

type FontName = keyof typeof FONT_FILES;
let fonts: Record<FontName, unknown> | undefined;

function loadFonts(): Record<FontName, unknown> {
  fonts ??= {
    regular: fontkit.create(readFileSync(resolve(FONT_FILES.regular))),
    bold: fontkit.create(readFileSync(resolve(FONT_FILES.bold))),
  };
  return fonts;
}

/** Opens the fonts and lays out a line with them (fontkit reads its tables at first use). */
export function warmQuoteFonts(): void {
  try {
    for (const font of Object.values(loadFonts())) {
      (font as { layout(text: string): unknown }).layout("Devis indicatif — 1 079,99 € é");
    }
  } catch (error) {
    // The first quote will say what is wrong; the server is not the place to fail for it.
    log.warn("quote fonts not opened", { error });
  }
}

const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const WIDTH = PAGE.width - 2 * PAGE.margin;
const COLOR = { text: "#111827", muted: "#6b7280", accent: "#1d4ed8", rule: "#d1d5db" };
const SHADE = "#f3f4f6";

/**
 * The quote as PDF bytes. pdfkit writes the creation date, and a file ID derived from it, into
 * the file: given `createdAt`, two renders of one document are the same bytes (issue 28).
 */
export async function quotePdf(quote: QuoteDocument, createdAt = new Date()): Promise<Buffer> {
  const { doc, bytes } = openPdf({
    Title: `${quote.title}${quote.number ? ` ${quote.number}` : ""} — ${quote.offer}`,
    Author: quote.seller.name,
    CreationDate: createdAt,
  });
  draw(doc, quote);
  doc.end();
  return bytes;
}

export type Doc = InstanceType<typeof PDFDocument>;

/**
 * An A4 document with the quote's fonts registered ("regular", "bold"), and its bytes once ended:
 * the quote, and the LOA file's summary and delivery report (issue 41).
 */
export function openPdf(info: { Title: string; Author: string; CreationDate: Date }): {
  doc: Doc;
  bytes: Promise<Buffer>;
} {
  const loaded = loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    lang: "fr-FR",
    displayTitle: true,
    info,
  });
  // pdfkit takes an opened fontkit font as a source (its types only list files and buffers).
  doc.registerFont("regular", loaded.regular as Buffer);
  doc.registerFont("bold", loaded.bold as Buffer);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolvePdf, reject) => {
    doc.on("end", () => resolvePdf(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, bytes };
}

/** The page's geometry and colours, for the other documents laid out like the quote. */
export const PDF_LAYOUT = { page: PAGE, width: WIDTH, color: COLOR } as const;

/** A table's column: its title, where it starts, how wide it is. */
export type PdfColumn = { title: string; x: number; width: number; align?: "left" | "right" };

/** A table's shaded row of titles at `y`; returns where its first row starts. */
export function tableHeading(doc: Doc, columns: readonly PdfColumn[], y: number): number {
  doc.rect(PAGE.margin, y, WIDTH, 20).fill(SHADE);
  doc.font("bold").fontSize(9).fillColor(COLOR.text);
  for (const column of columns) {
    doc.text(column.title, column.x + 4, y + 6, { width: column.width - 8, align: column.align });
  }
  return y + 24;
}

/** The thin rule across the page under a table's row. */
export function rowRule(doc: Doc, y: number): void {
  doc
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.margin + WIDTH, y)
    .lineWidth(0.5)
    .strokeColor(COLOR.rule)
    .stroke();
}

function draw(doc: Doc, quote: QuoteDocument) {
  const left = PAGE.margin;
  const half = WIDTH / 2;

  // Seller on the left, the document's title and dates on the right.
  const top = doc.y;
  doc
    .font("bold")
    .fontSize(14)
    .fillColor(COLOR.text)
    .text(quote.seller.name, left, top, {
      width: half - 10,
    });
  doc.font("regular").fontSize(8.5).fillColor(COLOR.muted);
  for (const line of quote.seller.lines) doc.text(line, { width: half - 10 });
  const sellerBottom = doc.y;

  doc.font("bold").fontSize(20).fillColor(COLOR.accent);
  doc.text(quote.title, left + half, top, { width: half, align: "right" });
  doc.font("regular").fontSize(9.5).fillColor(COLOR.text);
  if (quote.number) {
    doc.font("bold").text(`N° ${quote.number}`, { width: half, align: "right" }).font("regular");
  }
  doc.text(`Date d'émission : ${quote.issued}`, { width: half, align: "right" });
  doc.text(`Valable jusqu'au : ${quote.validUntil}`, { width: half, align: "right" });
  let y = Math.max(sellerBottom, doc.y) + 18;

  if (quote.accepted) {
    doc.font("bold").fontSize(10).fillColor(COLOR.accent);
    doc.text(quote.accepted, left, y, { width: WIDTH });
    y = doc.y + 12;
  }

  if (quote.customer) {
    doc
      .font("bold")
      .fontSize(9.5)
      .fillColor(COLOR.muted)
      .text("Adressé à", left + half, y);
    doc.font("regular").fillColor(COLOR.text);
    for (const line of quote.customer) doc.text(line, { width: half });
    y = doc.y + 14;
  }

  doc.font("bold").fontSize(12).fillColor(COLOR.text).text(quote.offer, left, y, { width: WIDTH });
  y = doc.y + 10;

  // The lines: base offer and each option, monthly and setup amounts HT.
  const columns = [
    { title: "Désignation", x: left, width: WIDTH - 230, align: "left" as const },
    { title: "Mensuel HT", x: left + WIDTH - 225, width: 110, align: "right" as const },
    { title: "Mise en service HT", x: left + WIDTH - 110, width: 110, align: "right" as const },
  ];
  y = tableHeading(doc, columns, y);
  for (const row of quote.rows) {
    const [designation, monthly, setup] = columns;
    doc.font("bold").fontSize(9.5).fillColor(COLOR.text);
    doc.text(row.label, designation.x + 4, y, { width: designation.width - 8 });
    doc
      .font("regular")
      .fillColor(COLOR.muted)
      .text(row.detail, { width: designation.width - 8 });
    const bottom = doc.y;
    doc.fillColor(COLOR.text);
    doc.text(row.monthly, monthly.x + 4, y, { width: monthly.width - 8, align: "right" });
    doc.text(row.setup, setup.x + 4, y, { width: setup.width - 8, align: "right" });
    y = Math.max(bottom, doc.y) + 5;
    rowRule(doc, y);
    y += 6;
  }

  y = figures(doc, quote.totals, y + 6);

  if (quote.lease) {
    doc.font("bold").fontSize(11).fillColor(COLOR.text);
    doc.text("Location avec option d'achat", left, y + 10, { width: WIDTH });
    y = figures(doc, quote.lease, doc.y + 4);
  }

  doc.font("regular").fontSize(8).fillColor(COLOR.muted);
  doc.text("", left, y + 18);
  for (const note of quote.notes) doc.text(note, { width: WIDTH, paragraphGap: 4 });
}

/** Label and value pairs, right-aligned under the table. */
function figures(doc: Doc, items: readonly QuoteFigure[], top: number): number {
  const labelX = PAGE.margin + WIDTH - 390;
  let y = top;
  for (const item of items) {
    doc
      .font(item.strong ? "bold" : "regular")
      .fontSize(9.5)
      .fillColor(COLOR.text);
    doc.text(item.label, labelX, y, { width: 150 });
    const labelBottom = doc.y;
    doc.text(item.value, labelX + 155, y, { width: 235, align: "right" });
    y = Math.max(labelBottom, doc.y) + 3;
  }
  return y;
}
