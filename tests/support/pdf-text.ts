// The text of a PDF as a reader's copy would give it (pdfjs-dist, Mozilla's PDF.js), with the
// no-break spaces of fr-FR amounts made plain, so that tests compare what a person reads.
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export async function pdfText(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const data = new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.slice());
  const pdf = await getDocument({ data, useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  await pdf.destroy();
  return plainSpaces(pages.join("\n"));
}

/** fr-FR writes '1 079,99 €' with narrow no-break spaces: compared as plain spaces. */
export const plainSpaces = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

/** The page count and paper size of a PDF's first page, in points. */
export async function pdfPages(bytes: Uint8Array | ArrayBuffer) {
  const data = new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.slice());
  const pdf = await getDocument({ data }).promise;
  const [, , width, height] = (await pdf.getPage(1)).view;
  const result = { count: pdf.numPages, width: Math.round(width), height: Math.round(height) };
  await pdf.destroy();
  return result;
}
