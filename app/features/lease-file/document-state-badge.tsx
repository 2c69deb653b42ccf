import { Badge } from "~/components/ui/badge";
import { DOCUMENT_STATE_LABELS } from "./lease-file-copy";
import type { DocumentState } from "./lease-file.server";

const VARIANTS = { received: "success", refused: "destructive", missing: "secondary" } as const;

/** `À fournir`, `Reçu` or `Refusé`, as the buyer's page and the request's page show it. */
export function DocumentStateBadge({ state }: { state: DocumentState }) {
  return <Badge variant={VARIANTS[state]}>{DOCUMENT_STATE_LABELS[state]}</Badge>;
}
