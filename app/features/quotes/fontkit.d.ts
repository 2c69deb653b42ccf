// fontkit 2 ships no types; the quote's PDF only opens fonts with it (quote-pdf.server.ts).
declare module "fontkit" {
  /** An opened font, passed on to pdfkit as it is. */
  export function create(buffer: Uint8Array): unknown;
}
