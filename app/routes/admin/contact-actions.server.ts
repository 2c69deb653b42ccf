// The HTTP side of the changes made to a contact request, shared by contacts.tsx and
// contact-request.tsx; what a change does is applyContactChange's (app/features/desk/contacts.server.ts).
import { z } from "zod";
import { ADMIN_MESSAGES, type FlashKey } from "~/lib/admin-messages";
import { contactNoteSchema } from "~/features/desk/contact-note";
import { CONTACT_STATUSES } from "~/lib/domain";
import { applyBulkChange, type BulkChange } from "~/features/desk/contact-bulk.server";
import { applyContactChange, type ContactChange } from "~/features/desk/contact-changes.server";
import { CONTACT_PAGE_SIZE } from "~/features/desk/contact-filters";
import {
  actionDone,
  actionFailure,
  idSchema,
  parseForm,
  type ActionFailure,
} from "~/platform/form.server";
import type { AdminUser } from "~/features/accounts/users.server";
import type { JournalAction } from "~/platform/journal";
import { parisDay } from "~/lib/dates";
import { now } from "~/platform/clock.server";
import { nextActionDaySchema } from "~/features/follow-ups/follow-up-form";

export const CONTACT_INTENTS = ["status", "assign", "note", "not-spam", "bulk"] as const;
export type ContactIntent = (typeof CONTACT_INTENTS)[number];

const FAILURES: Record<ContactIntent, string> = {
  status: ADMIN_MESSAGES.statusFailed,
  assign: ADMIN_MESSAGES.assignFailed,
  note: ADMIN_MESSAGES.noteFailed,
  "not-spam": ADMIN_MESSAGES.notSpamFailed,
  bulk: ADMIN_MESSAGES.bulkFailed,
};

const SUCCESS_FLASH: Record<ContactIntent, FlashKey> = {
  status: "statusUpdated",
  assign: "ownerUpdated",
  note: "noteAdded",
  "not-spam": "notSpam",
  bulk: "bulkDone",
};

const JOURNAL_ACTIONS_BY_INTENT = {
  status: "status-changed",
  note: "note-added",
  "not-spam": "spam-released",
  assign: "owner-changed",
  bulk: "bulk-changed",
} as const satisfies Record<ContactIntent, JournalAction>;

const INVALID_STATUS = "Statut ou demande non valide.";
const NOT_ASSIGNABLE = "Choisissez un compte Administrateur ou Commercial, ou personne.";

/** What the list's and the request page's forms post; a bad id or status reads as none. */
const contactActionFormSchema = z.object({
  // The status selector posts no intent of its own.
  intent: z.enum(CONTACT_INTENTS).optional(),
  id: idSchema.optional().catch(undefined),
  status: z.enum(CONTACT_STATUSES).optional().catch(undefined),
  // 'Attribuer à': an account id, or `none` for nobody.
  owner: z
    .union([z.literal("none"), idSchema])
    .optional()
    .catch(undefined),
  note: z.string(),
  // The list's bulk action: `status:<status>`, `assign:<id>|none` or `spam` (ids: the ticked rows).
  bulk: z.string().optional(),
});

const bulkChangeSchema = z.union([
  z
    .string()
    .regex(/^status:/)
    .transform((v) => v.slice(7))
    .pipe(z.enum(CONTACT_STATUSES))
    .transform((status): BulkChange => ({ intent: "status", status })),
  z
    .string()
    .regex(/^assign:/)
    .transform((v) => v.slice(7))
    .pipe(z.union([z.literal("none"), idSchema]))
    .transform((owner): BulkChange => ({
      intent: "assign",
      ownerId: owner === "none" ? null : owner,
    })),
  z.literal("spam").transform((): BulkChange => ({ intent: "spam" })),
  // 'À relancer le': the day is the form's date field (below), or `follow-up:none`.
  z.literal("follow-up").transform((): BulkChange => ({ intent: "follow-up", day: null })),
  z.literal("follow-up:none").transform((): BulkChange => ({ intent: "follow-up", day: null })),
]);

const bulkIdsSchema = z.array(idSchema).min(1).max(CONTACT_PAGE_SIZE);
const BULK_NOTHING = "Cochez au moins une demande et choisissez une action.";

/** A refusal, with the intent posted so that the page shows it by the right form. */
function failure(status: number, body: ActionFailure<"note"> & { intent: ContactIntent | null }) {
  return actionFailure(status, body);
}

/**
 * The action shared by the list and the request's page: status change, internal note, 'Ce n'est
 * pas du spam' (applyContactChange does the work). On success the browser is sent to `returnTo`
 * with the matching toast. The caller has passed requireAdmin (same origin, live session) and
 * gives its user.
 */
export async function contactAction(
  request: Request,
  posted: FormData,
  context: { requestId: string; clientIp: string },
  options: { user: AdminUser; id?: number; returnTo: (form: FormData) => string },
) {
  const submission = parseForm(posted, contactActionFormSchema);
  if (!submission.success) return failure(400, { intent: null, error: "Requête invalide" });
  const { form, data: input } = submission;
  const intent = input.intent ?? "status";
  if (intent === "bulk") return bulkAction(request, context, options, form, input.bulk);
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
  } else if (intent === "assign") {
    const { owner } = input;
    if (owner === undefined) {
      return failure(400, { intent, error: FAILURES.assign, description: NOT_ASSIGNABLE });
    }
    change = { intent, ownerId: owner === "none" ? null : owner };
  } else if (intent === "note") {
    const typed = input.note;
    const note = contactNoteSchema.safeParse(typed);
    if (!note.success) {
      return failure(400, {
        intent,
        error: FAILURES.note,
        description: note.error.issues[0]?.message,
        values: { note: typed.slice(0, 20_000) },
      });
    }
    change = { intent, body: note.data };
  } else {
    change = { intent };
  }

  const result = await applyContactChange(id, change, options.user, context);
  if (result.kind === "failed") return failure(503, { intent, error: FAILURES[intent] });
  if (result.kind === "not-assignable") {
    return failure(400, { intent, error: FAILURES[intent], description: NOT_ASSIGNABLE });
  }
  if (result.kind === "missing") {
    return failure(404, {
      intent,
      error: FAILURES[intent],
      description: "Cette demande n'existe plus.",
    });
  }
  return actionDone(request, context, SUCCESS_FLASH[intent], options.returnTo(form), {
    actor: options.user,
    action: JOURNAL_ACTIONS_BY_INTENT[intent],
    target: change.intent === "status" ? `demande ${id} : ${change.status}` : `demande ${id}`,
  });
}

/** The list's bulk form: one change to every ticked request, then back to the same view. */
async function bulkAction(
  request: Request,
  context: { requestId: string },
  options: { user: AdminUser; returnTo: (form: FormData) => string },
  form: FormData,
  bulk: string | undefined,
) {
  const change = bulkChangeSchema.safeParse(bulk);
  const ids = bulkIdsSchema.safeParse(form.getAll("ids"));
  if (!change.success || !ids.success) {
    return failure(400, { intent: "bulk", error: FAILURES.bulk, description: BULK_NOTHING });
  }
  if (bulk === "follow-up" && change.data.intent === "follow-up") {
    const day = nextActionDaySchema(parisDay(now())).safeParse(form.get("nextActionOn") ?? "");
    if (!day.success) {
      const description = `À relancer le : ${day.error.issues[0]?.message ?? "date non valide."}`;
      return failure(400, { intent: "bulk", error: FAILURES.bulk, description });
    }
    change.data.day = day.data;
  }
  const result = await applyBulkChange([...new Set(ids.data)], change.data, options.user, context);
  if (result.kind === "failed") return failure(503, { intent: "bulk", error: FAILURES.bulk });
  if (result.kind === "not-assignable") {
    return failure(400, { intent: "bulk", error: FAILURES.bulk, description: NOT_ASSIGNABLE });
  }
  return actionDone(request, context, SUCCESS_FLASH.bulk, options.returnTo(form), {
    actor: options.user,
    action: "bulk-changed",
    target: `${bulk} : demandes ${[...new Set(ids.data)].join(", ")}`.slice(0, 500),
  });
}
