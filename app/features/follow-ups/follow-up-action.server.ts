import { parisDay } from "~/lib/dates";
import { now } from "~/platform/clock.server";
import { withDatabase } from "~/platform/availability.server";
import { actionDone, actionFailure, parseForm } from "~/platform/form.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { followUpFormSchema, type FollowUpFields } from "./follow-up-form";
import { setNextAction } from "~/features/desk/next-action.server";

const NOT_SAVED = "Relance non enregistrée";

/**
 * 'À relancer le' of a request's page (intent `follow-up`), or its `Retirer`: saved, journaled,
 * then `returnTo` with its toast. The caller has passed requireAdmin and read the form.
 */
export async function followUpAction(
  request: Request,
  form: FormData,
  context: { requestId: string; clientIp: string },
  options: { user: AdminUser; id: number; returnTo: string },
) {
  const submission = parseForm(form, followUpFormSchema(parisDay(now())));
  if (!submission.success) {
    return actionFailure<FollowUpFields>(400, {
      intent: "follow-up",
      error: NOT_SAVED,
      description: submission.error.issues[0]?.message,
      fieldErrors: submission.fieldErrors,
      values: { nextActionOn: submission.values.nextActionOn.slice(0, 20) },
    });
  }
  const day = submission.data.clear ? null : submission.data.nextActionOn.trim();
  const outcome = await withDatabase("follow-up", context, () => setNextAction(options.id, day));
  if (outcome === "missing") {
    return actionFailure<FollowUpFields>(404, {
      intent: "follow-up",
      error: NOT_SAVED,
      description: "Cette demande n'existe plus.",
    });
  }
  return actionDone(request, context, day ? "followUpSet" : "followUpCleared", options.returnTo, {
    actor: options.user,
    action: "follow-up-set",
    target: `demande ${options.id} : ${day ?? "aucune"}`,
  });
}
