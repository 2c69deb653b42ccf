import { actionDone, actionFailure, parseForm } from "~/platform/form.server";
import { withDatabase } from "~/platform/availability.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { sendReply } from "./conversation.server";
import { replyFormSchema, type ReplyFields } from "./reply-form";

const NOT_SENT = "Message non envoyé";

/**
 * `Envoyer` of the request page's message form (its intent `reply`): the message stored and
 * queued, then the page again with its toast. A refusal keeps what was typed. The caller has passed
 * requireAdmin and read the form.
 */
export async function replyAction(
  request: Request,
  form: FormData,
  context: { requestId: string; clientIp: string },
  options: { user: AdminUser; id: number },
) {
  const submission = parseForm(form, replyFormSchema);
  const values = {
    subject: submission.values.subject.slice(0, 1_000),
    body: submission.values.body.slice(0, 20_000),
    attachQuote: submission.values.attachQuote,
  };
  if (!submission.success) {
    return actionFailure<ReplyFields>(400, {
      intent: "reply",
      error: NOT_SENT,
      description: submission.error.issues[0]?.message,
      fieldErrors: submission.fieldErrors,
      values,
    });
  }
  const { subject, body, attachQuote } = submission.data;
  const sending = await withDatabase("reply", context, () =>
    sendReply(options.id, { subject, body, attachQuote: attachQuote === "on" }, options.user),
  );
  if (sending.kind === "missing") {
    return actionFailure<ReplyFields>(404, {
      intent: "reply",
      error: NOT_SENT,
      description: "Cette demande n'existe plus.",
    });
  }
  if (sending.kind === "no-quote") {
    return actionFailure<ReplyFields>(409, {
      intent: "reply",
      error: NOT_SENT,
      description: "Cette demande n'a pas de devis envoyé à joindre.",
      values: { ...values, attachQuote: "" },
    });
  }
  return actionDone(request, context, "replySent", `/admin/contacts/${options.id}`, {
    actor: options.user,
    action: "reply-sent",
    target: `demande ${options.id}`,
  });
}
