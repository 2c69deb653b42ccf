// The HTTP side of the changes made to a contact request, shared by contacts.tsx and
// contact-request.tsx; what a change does is applyContactChange's (app/server/contacts.server.ts).
import { data, redirect } from "react-router";
import { z } from "zod";
import { ADMIN_MESSAGES, type FlashKey } from "~/lib/admin-messages";
import { contactNoteSchema } from "~/lib/contact-note";
import { CONTACT_STATUSES } from "~/lib/domain";
import { PRIVATE_HEADERS } from "~/server/auth.server";
import { applyContactChange, type ContactChange } from "~/server/contacts.server";
import { journal } from "~/server/journal.server";
import { withFlash } from "~/server/flash.server";
import { readForm } from "~/server/form.server";
import type { AdminUser } from "~/server/users.server";
import type { JournalAction } from "~/lib/journal";

/** What a failed action gives back to the page: a toast with JavaScript, an alert without. */
export type ContactActionData = {
  intent: ContactIntent | null;
  error: string;
  description?: string;
  /** The note as typed, given back when it is refused. */
  note?: string;
};

export const CONTACT_INTENTS = ["status", "note", "not-spam"] as const;
export type ContactIntent = (typeof CONTACT_INTENTS)[number];

/** A contact request id as it appears in a URL or a form: a positive PostgreSQL integer. */
export const contactIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((id) => id <= 2_147_483_647);

const FAILURES: Record<ContactIntent, string> = {
  status: ADMIN_MESSAGES.statusFailed,
  note: ADMIN_MESSAGES.noteFailed,
  "not-spam": ADMIN_MESSAGES.notSpamFailed,
};

const SUCCESS_FLASH: Record<ContactIntent, FlashKey> = {
  status: "statusUpdated",
  note: "noteAdded",
  "not-spam": "notSpam",
};

const JOURNAL_ACTIONS_BY_INTENT = {
  status: "status-changed",
  note: "note-added",
  "not-spam": "spam-released",
} as const satisfies Record<ContactIntent, JournalAction>;

const INVALID_STATUS = "Statut ou demande non valide.";

/** What the list's and the request page's forms post; a bad id or status reads as none. */
const contactActionFormSchema = z.object({
  // The status selector posts no intent of its own.
  intent: z.enum(CONTACT_INTENTS).optional(),
  id: contactIdSchema.optional().catch(undefined),
  status: z.enum(CONTACT_STATUSES).optional().catch(undefined),
  note: z.string(),
});

function failure(status: number, body: ContactActionData) {
  return data(body, { status, headers: PRIVATE_HEADERS });
}

/**
 * The action shared by the list and the request's page: status change, internal note, 'Ce n'est
 * pas du spam' (applyContactChange does the work). On success the browser is sent to `returnTo`
 * with the matching toast. The caller has passed requireAdmin (same origin, live session) and
 * gives its user.
 */
export async function contactAction(
  request: Request,
  context: { requestId: string; clientIp: string },
  options: { user: AdminUser; id?: number; returnTo: (form: FormData) => string },
) {
  const submission = await readForm(request, contactActionFormSchema);
  if (!submission.success) return failure(400, { intent: null, error: "Requête invalide" });
  const { form, data: input } = submission;
  const intent = input.intent ?? "status";
  const id = options.id ?? input.id;
  if (id === undefined) {
    return failure(400, {
      intent,
      error: FAILURES[intent],
      description: intent === "status" ? INVALID_STATUS : "Demande non valide.",
    });
  }

  let change: ContactChange;
  if (intent === "status") {
    const { status } = input;
    if (status === undefined) {
      return failure(400, { intent, error: FAILURES.status, description: INVALID_STATUS });
    }
    change = { intent, status };
  } else if (intent === "note") {
    const typed = input.note;
    const note = contactNoteSchema.safeParse(typed);
    if (!note.success) {
      return failure(400, {
        intent,
        error: FAILURES.note,
        description: note.error.issues[0]?.message,
        note: typed.slice(0, 20_000),
      });
    }
    change = { intent, body: note.data };
  } else {
    change = { intent };
  }

  const result = await applyContactChange(id, change, options.user, context);
  if (result.kind === "failed") return failure(503, { intent, error: FAILURES[intent] });
  if (result.kind === "missing") {
    return failure(404, {
      intent,
      error: FAILURES[intent],
      description: "Cette demande n'existe plus.",
    });
  }
  await journal.record(context, {
    actor: options.user,
    action: JOURNAL_ACTIONS_BY_INTENT[intent],
    target: change.intent === "status" ? `demande ${id} : ${change.status}` : `demande ${id}`,
  });
  throw redirect(options.returnTo(form), {
    headers: withFlash(request, SUCCESS_FLASH[intent], PRIVATE_HEADERS),
  });
}
