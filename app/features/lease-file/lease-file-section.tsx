import { Form, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-alert";
import { formatDateTime } from "~/lib/dates";
import { formatFileSize } from "~/lib/attachments";
import type { BuyerLeaseFile } from "./lease-file.server";
import { fileStatusSentence } from "./lease-file-copy";
import { DocumentStateBadge } from "./document-state-badge";

const ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";

/**
 * The buyer's LOA file on the quote's page (issue 41): what the financer needs and why, what was
 * received or refused, and one plain upload form per document (no JavaScript on this page).
 */
export function LeaseFileSection({ file, refused }: { file: BuyerLeaseFile; refused?: string }) {
  const received = new URLSearchParams(useLocation().search).get("document") === "recu";
  const collecting = file.status === "file_incomplete" || file.status === "file_complete";
  return (
    <Card id="dossier">
      <CardHeader>
        <CardTitle as="h2">Votre dossier de financement</CardTitle>
        <p className="text-sm text-muted-foreground">
          La location avec option d'achat est financée par notre partenaire : voici les pièces qu'il
          demande. Formats acceptés : PDF, JPEG ou PNG.
        </p>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {refused ? (
          <FormAlert variant="error" title="Document refusé" description={refused} />
        ) : null}
        {received && !refused ? (
          <FormAlert
            variant="success"
            title="Document reçu"
            description="Merci, il est joint à votre dossier."
          />
        ) : null}
        <p className="font-medium">{fileStatusSentence(file.status, file.missing)}</p>
        <ul className="space-y-4" aria-label="Pièces du dossier">
          {file.items.map((item) => (
            <li key={item.kindId} className="space-y-2 rounded-md border p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold">{item.title}</h3>
                <DocumentStateBadge state={item.state} />
              </div>
              <p className="text-muted-foreground">{item.purpose}</p>
              {item.refusalReason ? (
                <p className="text-destructive">Motif du refus : {item.refusalReason}</p>
              ) : null}
              {item.documents.length ? (
                <ul className="space-y-1 text-muted-foreground">
                  {item.documents.map((document) => (
                    <li key={`${document.fileName}-${String(document.createdAt)}`}>
                      {document.fileName} ({formatFileSize(document.size)}), envoyé le{" "}
                      {formatDateTime(document.createdAt)}
                      {document.status === "refused" ? " — refusé" : ""}
                    </li>
                  ))}
                </ul>
              ) : null}
              {collecting ? (
                <Form
                  method="post"
                  encType="multipart/form-data"
                  className="flex flex-wrap items-end gap-3"
                >
                  <input type="hidden" name="intent" value="documents" />
                  <input type="hidden" name="kind" value={item.kindId} />
                  <div className="space-y-1">
                    <label htmlFor={`document-${item.kindId}`} className="block font-medium">
                      {item.state === "missing" ? "Fichier" : "Envoyer un autre fichier"} (
                      {item.title})
                    </label>
                    <input
                      id={`document-${item.kindId}`}
                      type="file"
                      name="document"
                      accept={ACCEPT}
                      multiple
                      required
                      className="block max-w-full text-sm"
                    />
                  </div>
                  <Button type="submit" variant={item.state === "received" ? "outline" : "default"}>
                    Envoyer
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
