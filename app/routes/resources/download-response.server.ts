import { PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import { attachmentDisposition } from "~/lib/attachments";
import { cacheControl } from "~/lib/http-headers";

/**
 * A file someone sent us, served to the team (issues 40 and 41): always a download of the type
 * read from its bytes when it was kept, never sniffed, never run, never cached by a proxy.
 */
export function downloadResponse(file: { fileName: string; contentType: string; data: Buffer }) {
  return new Response(new Uint8Array(file.data), {
    headers: {
      ...PRIVATE_HEADERS,
      ...cacheControl("private"),
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
