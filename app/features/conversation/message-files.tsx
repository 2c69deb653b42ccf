import { Paperclip } from "lucide-react";
import { formatFileSize } from "~/lib/attachments";

/** What a page knows of a file an incoming message carried (never its bytes). */
export type MessageFile = { id: number; filename: string; size: number };

/**
 * Under a message read from the mailbox (issue 40): its files, each a download, and the link to
 * its own layout when it was written in HTML. Plain links: the addresses are downloads and pages
 * of their own, not routes of this app.
 */
export function MessageFiles({
  messageId,
  files,
  hasHtml,
}: {
  messageId: number;
  files: MessageFile[];
  hasHtml: boolean;
}) {
  if (files.length === 0 && !hasHtml) return null;
  return (
    <div className="mt-2 space-y-1 text-xs">
      {files.length > 0 ? (
        <ul className="space-y-1" aria-label="Pièces jointes">
          {files.map((file) => (
            <li key={file.id} className="flex items-center gap-1">
              <Paperclip className="size-3 shrink-0 text-muted-foreground" aria-hidden="true" />
              <a
                href={`/admin/messages/${messageId}/pieces/${file.id}`}
                download
                className="break-all font-medium text-primary underline underline-offset-4"
              >
                {file.filename}
              </a>
              <span className="text-muted-foreground">({formatFileSize(file.size)})</span>
            </li>
          ))}
        </ul>
      ) : null}
      {hasHtml ? (
        <p>
          <a
            href={`/admin/messages/${messageId}/html`}
            className="font-medium text-primary underline underline-offset-4"
          >
            Voir la mise en forme d'origine
          </a>
        </p>
      ) : null}
    </div>
  );
}
