import { FileDown, FolderCheck } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, IconCardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { formatDateTime } from "~/lib/dates";
import { formatFileSize } from "~/lib/attachments";
import { fileStatusSentence } from "./lease-file-copy";
import { DocumentStateBadge } from "./document-state-badge";
import type { LeaseDocumentSummary, LeaseFile } from "./lease-file.server";

/** One received or refused document: its download, its fingerprint, and `Refuser` with a reason. */
function DocumentLine({
  requestId,
  document,
  canRefuse,
}: {
  requestId: number;
  document: LeaseDocumentSummary;
  canRefuse: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <li className="space-y-2 rounded-md bg-muted/50 p-3">
      <p className="flex flex-wrap items-center gap-2">
        <a
          href={`/admin/contacts/${requestId}/documents/${document.id}`}
          download
          className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
        >
          <FileDown className="size-4" aria-hidden="true" />
          {document.fileName}
        </a>
        <span className="text-muted-foreground">
          {formatFileSize(document.size)} · reçu le {formatDateTime(document.createdAt)}
        </span>
        {document.status === "refused" ? <DocumentStateBadge state="refused" /> : null}
      </p>
      <p className="break-all font-mono text-xs text-muted-foreground">SHA-256 {document.sha256}</p>
      {document.refusalReason ? <p>Motif : {document.refusalReason}</p> : null}
      {canRefuse && document.status === "received" ? (
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="document-refuse" />
          <input type="hidden" name="documentId" value={document.id} />
          <div className="space-y-1">
            <label htmlFor={`refuse-${document.id}`} className="text-xs font-medium">
              Motif du refus (lu par le client)
            </label>
            <Input
              id={`refuse-${document.id}`}
              name="reason"
              required
              maxLength={300}
              className="w-64"
            />
          </div>
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            Refuser ce document
          </Button>
        </Form>
      ) : null}
    </li>
  );
}

/** The request page's LOA file (issue 41): each document the financer asks for, and its state. */
export function LeaseFileCard({
  requestId,
  file,
  children,
}: {
  requestId: number;
  file: LeaseFile;
  /** What the later steps add (the financer, the delivery). */
  children?: React.ReactNode;
}) {
  const collecting = file.status === "file_incomplete" || file.status === "file_complete";
  return (
    <Card>
      <CardHeader>
        <IconCardTitle icon={FolderCheck}>Dossier LOA</IconCardTitle>
        <p className="text-sm text-muted-foreground">
          Ouvert le {formatDateTime(file.openedAt)}
          {file.completeAt ? `, complet le ${formatDateTime(file.completeAt)}` : ""}.{" "}
          {fileStatusSentence(file.status, file.missing)}
        </p>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <ul className="space-y-4" aria-label="Pièces du dossier LOA">
          {file.items.map((item) => (
            <li key={item.kind.id} className="space-y-2">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{item.kind.title}</span>
                <DocumentStateBadge state={item.state} />
              </p>
              {item.documents.length ? (
                <ul className="space-y-2">
                  {item.documents.map((document) => (
                    <DocumentLine
                      key={document.id}
                      requestId={requestId}
                      document={document}
                      canRefuse={collecting}
                    />
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        {file.others.length ? (
          <div className="space-y-2">
            <h3 className="font-semibold">Autres pièces (plus demandées)</h3>
            <ul className="space-y-2">
              {file.others.map((document) => (
                <DocumentLine
                  key={document.id}
                  requestId={requestId}
                  document={document}
                  canRefuse={false}
                />
              ))}
            </ul>
          </div>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}
