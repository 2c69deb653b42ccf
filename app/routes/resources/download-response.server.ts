import { PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import { attachmentDisposition } from "~/lib/attachments";
import { cacheControl } from "~/lib/http-headers";
import { withDatabase } from "~/platform/availability.server";
import { plainAnswer, unavailableAnswer } from "./quote-response.server";

/** A file as the team downloads it: its name, its type (read from its bytes), its bytes. */
export type DownloadFile = { fileName: string; contentType: string; data: Uint8Array };

/**
 * A file someone sent us, or one made of theirs, served to the team (issues 40 and 41): always a
 * download of its stored type, never sniffed, never run, never cached by a proxy.
 */
export function downloadResponse(file: DownloadFile) {
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

/**
 * A stored file of a request, read for the team: the French 503 while the database is away, 404
 * with `gone` when it is not there (or no longer), else `served` records who took it, then the
 * download.
 */
export async function storedFileAnswer(
  what: string,
  context: { requestId?: string },
  read: () => Promise<DownloadFile | undefined>,
  gone: string,
  served: (file: DownloadFile) => Promise<void> | void,
): Promise<Response> {
  const file = await withDatabase(what, context, read, {
    fallback: () => unavailableAnswer(PRIVATE_HEADERS),
  });
  if (file instanceof Response) return file;
  if (!file) return plainAnswer(404, gone, PRIVATE_HEADERS);
  await served(file);
  return downloadResponse(file);
}
