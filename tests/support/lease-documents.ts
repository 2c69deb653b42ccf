import { createDeflate } from "node:zlib";

// Files a buyer might post to the LOA file (issue 41), honest and hostile, for the tests that
// post them over HTTP.

/** A small PDF as a writer makes one: header, one object, `body` in a comment, trailer. */
export function pdfBytes(body = "Kbis ACME SAS"): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${body}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    "latin1",
  );
}

/** A valid PDF of `bytes` bytes in all: padding in a comment line before the trailer. */
export function pdfOfSize(bytes: number): Buffer {
  const shell = pdfBytes("");
  return pdfBytes("x".repeat(Math.max(0, bytes - shell.length)));
}

/** A Windows program (MZ header pointing to a PE header), whatever it is named. */
export function peExecutable(): Buffer {
  const exe = Buffer.concat([
    Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"),
    Buffer.alloc(200),
  ]);
  exe.write("PE\0\0", 0x80, "latin1");
  exe.writeUInt32LE(0x80, 0x3c);
  return exe;
}

/** A PDF that a browser would also render as a page with a script (HTML/PDF polyglot). */
export function htmlPdfPolyglot(): Buffer {
  return Buffer.from(
    `%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n`,
    "latin1",
  );
}

/** A PDF whose one FlateDecode stream inflates to `megabytes` of zeros (a compression bomb). */
export async function bombPdf(megabytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(chunks);
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
    stream,
    Buffer.from("\nendstream\nendobj\ntrailer\n<< >>\n%%EOF\n"),
  ]);
}
