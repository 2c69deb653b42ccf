import { Badge } from "~/components/ui/badge";
import { alertsWaitingLabel } from "./alerts";

/** The admin list's badge of the confirmed `Me prévenir` alerts waiting on an offer (issue 30). */
export function AlertsWaitingBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge variant="secondary" title="Alertes « Me prévenir » confirmées, en attente">
      {alertsWaitingLabel(count)}
    </Badge>
  );
}
