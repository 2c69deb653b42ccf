import { redirect } from "react-router";
import { z } from "zod";
import type { FlashKey } from "~/lib/admin-messages";
import { firstFieldError } from "~/lib/field-errors";
import type { JournalAction } from "~/platform/journal";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { withDatabase } from "~/platform/availability.server";
import { actionDone, actionFailure, idSchema, parseForm } from "~/platform/form.server";
import {
  addDocumentKind,
  FINANCER_EMAIL_MAX,
  FINANCER_NAME_MAX,
  KIND_PURPOSE_MAX,
  KIND_TITLE_MAX,
  moveDocumentKind,
  removeDocumentKind,
  saveLeaseFinancer,
  updateDocumentKind,
} from "./lease-settings.server";

// The forms `Barème LOA` adds for the LOA file (issue 41): the financer, and the documents it asks
// for. An Administrateur's: the address is where the buyers' documents are mailed.

export const LEASE_SETTINGS_PATH = "/admin/lease";

export const LEASE_SETTINGS_INTENTS = [
  "financer",
  "kind-add",
  "kind-update",
  "kind-remove",
  "kind-move",
] as const;
export type LeaseSettingsIntent = (typeof LEASE_SETTINGS_INTENTS)[number];

export function isLeaseSettingsIntent(value: unknown): value is LeaseSettingsIntent {
  return (LEASE_SETTINGS_INTENTS as readonly unknown[]).includes(value);
}

const kindFields = {
  title: z
    .string()
    .trim()
    .min(1, "Indiquez le nom de la pièce.")
    .max(KIND_TITLE_MAX, `Le nom tient en ${KIND_TITLE_MAX} caractères au plus.`),
  purpose: z
    .string()
    .trim()
    .min(1, "Dites au client à quoi sert cette pièce.")
    .max(KIND_PURPOSE_MAX, `L'explication tient en ${KIND_PURPOSE_MAX} caractères au plus.`),
};

const settingsSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("financer"),
    financerName: z
      .string()
      .trim()
      .min(1, "Indiquez le nom du financeur.")
      .max(FINANCER_NAME_MAX, `Le nom tient en ${FINANCER_NAME_MAX} caractères au plus.`),
    financerEmail: z
      .email("Adresse e-mail du financeur non valide.")
      .max(FINANCER_EMAIL_MAX, "Adresse e-mail trop longue.")
      .optional(),
  }),
  z.object({ intent: z.literal("kind-add"), ...kindFields }),
  z.object({ intent: z.literal("kind-update"), id: idSchema, ...kindFields }),
  // Only the confirmation's form says `confirm`: a bare post asks first.
  z.object({
    intent: z.literal("kind-remove"),
    id: idSchema,
    confirm: z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("kind-move"), id: idSchema, direction: z.enum(["up", "down"]) }),
]);

const FAILED: Record<LeaseSettingsIntent, string> = {
  financer: "Financeur non enregistré",
  "kind-add": "Pièce non ajoutée",
  "kind-update": "Pièce non enregistrée",
  "kind-remove": "Pièce non retirée",
  "kind-move": "Ordre non modifié",
};
const GONE = "Cette pièce n'est plus dans la liste.";
const TAKEN = "Une pièce porte déjà ce nom.";

/**
 * The action of those forms, after the page's own guard (the page is the catalogue's too): an
 * Administrateur only. The caller read the form.
 */
export async function leaseSettingsAction(
  request: Request,
  form: FormData,
  context: { requestId: string; clientIp: string },
  intent: LeaseSettingsIntent,
) {
  const { user } = await requireAdmin(request, "admin");
  const submission = parseForm(form, settingsSchema);
  if (!submission.success) {
    const { fieldErrors, values } = submission;
    if (fieldErrors.id) {
      return actionFailure(404, { intent, error: FAILED[intent], description: GONE });
    }
    return actionFailure(400, {
      intent,
      error: FAILED[intent],
      description: firstFieldError(fieldErrors, FAILED[intent]),
      fieldErrors,
      values: {
        id: values.id,
        title: values.title.slice(0, 1_000),
        purpose: values.purpose.slice(0, 2_000),
        financerName: values.financerName.slice(0, 1_000),
        financerEmail: values.financerEmail.slice(0, 1_000),
      },
    });
  }
  const input = submission.data;
  const done = (flash: FlashKey, action: JournalAction, target: string) =>
    actionDone(request, context, flash, LEASE_SETTINGS_PATH, { actor: user, action, target });

  if (input.intent === "financer") {
    const financer = { name: input.financerName, email: input.financerEmail ?? null };
    await withDatabase("lease financer", context, () => saveLeaseFinancer(financer));
    return done(
      "leaseFinancerSaved",
      "lease-financer-changed",
      `${financer.name} <${financer.email ?? "sans adresse"}>`,
    );
  }
  if (input.intent === "kind-remove") {
    if (!input.confirm) {
      throw redirect(`${LEASE_SETTINGS_PATH}?remove=${input.id}`, { headers: PRIVATE_HEADERS });
    }
    const title = await withDatabase("remove lease document kind", context, () =>
      removeDocumentKind(input.id, user),
    );
    if (title === undefined) {
      return actionFailure(404, { intent, error: FAILED[intent], description: GONE });
    }
    return done("leaseKindRemoved", "lease-document-kind-removed", `« ${title} »`);
  }
  if (input.intent === "kind-move") {
    const title = await withDatabase("move lease document kind", context, () =>
      moveDocumentKind(input.id, input.direction),
    );
    if (title === undefined) {
      return actionFailure(404, { intent, error: FAILED[intent], description: GONE });
    }
    const where = input.direction === "up" ? "vers le haut" : "vers le bas";
    return done("leaseKindMoved", "lease-document-kind-moved", `« ${title} » ${where}`);
  }
  return saveKind(request, context, user, input);
}

async function saveKind(
  request: Request,
  context: { requestId: string; clientIp: string },
  user: AdminUser,
  input: { intent: "kind-add" | "kind-update"; id?: number; title: string; purpose: string },
) {
  const { intent, title, purpose } = input;
  const outcome = await withDatabase("save lease document kind", context, async () =>
    intent === "kind-add" || input.id === undefined
      ? (await addDocumentKind({ title, purpose }, user)).kind
      : updateDocumentKind(input.id, { title, purpose }),
  );
  if (outcome === "missing") {
    return actionFailure(404, { intent, error: FAILED[intent], description: GONE });
  }
  if (outcome === "duplicate") {
    return actionFailure(409, {
      intent,
      error: FAILED[intent],
      description: TAKEN,
      fieldErrors: { title: TAKEN },
      values: { id: input.id === undefined ? "" : String(input.id), title, purpose },
    });
  }
  return actionDone(
    request,
    context,
    intent === "kind-add" ? "leaseKindAdded" : "leaseKindUpdated",
    LEASE_SETTINGS_PATH,
    {
      actor: user,
      action: intent === "kind-add" ? "lease-document-kind-added" : "lease-document-kind-updated",
      target: `« ${title} »`,
    },
  );
}
