// The list's bulk actions: one change applied to the ticked requests.

import { type ContactStatus } from "~/lib/domain";
import { log } from "~/platform/log.server";
import { type AdminUser } from "~/features/accounts/users.server";
import {
  assignContactRequest,
  changeContactStatus,
  markSuspectedSpam,
} from "./contact-changes.server";
import { setNextActions } from "./next-action.server";

/** One change applied to the requests ticked in the list. */
export type BulkChange =
  | { intent: "status"; status: ContactStatus }
  | { intent: "assign"; ownerId: number | null }
  | { intent: "spam" }
  // 'À relancer le' (issue 40): the same day on every ticked request, or none.
  | { intent: "follow-up"; day: string | null };

export type BulkResult =
  { kind: "done"; changed: number } | { kind: "not-assignable" } | { kind: "failed" };

/**
 * The list's bulk actions: each request changes in its own transaction and history, as from its
 * page; requests gone meanwhile are skipped. An owner who cannot own requests refuses the lot.
 */
export async function applyBulkChange(
  ids: number[],
  change: BulkChange,
  actor: AdminUser,
  context: { requestId: string },
): Promise<BulkResult> {
  let changed = 0;
  try {
    if (change.intent === "follow-up") changed = await setNextActions(ids, change.day);
    else
      for (const id of ids) {
        const outcome =
          change.intent === "status"
            ? await changeContactStatus(id, change.status, actor)
            : change.intent === "assign"
              ? await assignContactRequest(id, change.ownerId, actor)
              : await markSuspectedSpam(id);
        if (outcome === "not-assignable") return { kind: "not-assignable" };
        if (outcome === "changed") changed++;
      }
  } catch (error) {
    log.error("bulk contact change failed", { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  log.info("contact requests changed in bulk", {
    requestId: context.requestId,
    intent: change.intent,
    count: ids.length,
    changed,
    userId: actor.id,
  });
  return { kind: "done", changed };
}
