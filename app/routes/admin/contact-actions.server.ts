// The HTTP side of the changes made to a contact request, shared by contacts.tsx and
// contact-request.tsx; what a change does is applyContactChange's (app/server/contacts.server.ts).
import { data, redirect } from "react-router";
import { z } from "zod";
import { ADMIN_MESSAGES, type FlashKey } from "~/lib/admin-messages";
import { contactNoteSchema } from "~/lib/contact-note";
import { CONTACT_STATUSES } from "~/lib/domain";
import { PRIVATE_HEADERS } from "~/server/auth.server";
import { applyContactChange, type ContactChange } from "~/server/contacts.server";
import { withFlash } from "~/server/flash.server";
import { formText, readForm } from "~/server/form.server";
import type { AdminUser } from "~/server/users.server";

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

const INVALID_STATUS = "Statut ou demande non valide.";

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
  context: { requestId: string },
  options: { user: AdminUser; id?: number; returnTo: (form: FormData) => string },
) {
  const form = await readForm(request);
  const rawIntent = formText(form, "intent") || "status";
  const intent = CONTACT_INTENTS.find((i) => i === rawIntent);
  if (!intent) return failure(400, { intent: null, error: "Requête invalide" });
  const id = options.id ?? contactIdSchema.safeParse(formText(form, "id")).data;
  if (id === undefined) {
    return failure(400, {
      intent,
      error: FAILURES[intent],
      description: intent === "status" ? INVALID_STATUS : "Demande non valide.",
    });
  }

  let change: ContactChange;
  if (intent === "status") {
    const status = z.enum(CONTACT_STATUSES).safeParse(formText(form, "status"));
    if (!status.success) {
      return failure(400, { intent, error: FAILURES.status, description: INVALID_STATUS });
    }
    change = { intent, status: status.data };
  } else if (intent === "note") {
    const typed = formText(form, "note");
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
  throw redirect(options.returnTo(form), {
    headers: withFlash(request, SUCCESS_FLASH[intent], PRIVATE_HEADERS),
  });
}
