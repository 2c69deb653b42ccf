import { redirect } from "react-router";
import { z } from "zod";
import { CONTACT_STATUS_LABELS, type ContactStatus } from "~/lib/domain";
import { parisDay } from "~/lib/dates";
import { firstFieldError } from "~/lib/field-errors";
import { PRIVATE_HEADERS } from "~/features/accounts/auth.server";
import type { AdminUser } from "~/features/accounts/users.server";
import { withDatabase } from "~/platform/availability.server";
import { now } from "~/platform/clock.server";
import { actionDone, actionFailure, parseForm } from "~/platform/form.server";
import type { DeliveredItem } from "~/platform/schema.server";
import {
  enterDeliveredItems,
  handOffLeaseFile,
  recordFinancerAnswer,
  type StepOutcome,
} from "./financer.server";

// The request page's forms for the LOA file after its documents (issue 41): `Transmettre au
// financeur` (after a confirmation), the financer's answer, the equipment delivered. The caller
// has passed requireAdmin (Administrateur or Commercial) and read the form.

export const FINANCER_INTENTS = ["lease-hand-off", "financer-answer", "delivery-items"] as const;
export type FinancerIntent = (typeof FINANCER_INTENTS)[number];

export function isFinancerIntent(value: unknown): value is FinancerIntent {
  return (FINANCER_INTENTS as readonly unknown[]).includes(value);
}

/** Lines of equipment a delivery report lists at most. */
export const DELIVERY_ITEMS_MAX = 20;
export const DELIVERY_LABEL_MAX = 120;
export const DELIVERY_SERIAL_MAX = 60;
const REFERENCE_MAX = 60;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const text = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} tient en ${max} caractères au plus.`)
    .refine((v) => !CONTROL.test(v), `${label} contient des caractères non autorisés.`);

const handOffSchema = z.object({
  intent: z.literal("lease-hand-off"),
  confirm: z.literal("yes").optional(),
});

const answerSchema = z.object({
  intent: z.literal("financer-answer"),
  answer: z.enum(["approved", "refused"], { message: "Choisissez Accord ou Refus." }),
  answeredOn: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Indiquez la date de la réponse (JJ/MM/AAAA).")
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
        new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      "Cette date n'existe pas.",
    ),
  reference: text(REFERENCE_MAX, "La référence du financeur").optional(),
});

const itemFields = Object.fromEntries(
  Array.from({ length: DELIVERY_ITEMS_MAX }, (_, i) => [
    [`label${i}`, text(DELIVERY_LABEL_MAX, "Le matériel").optional()],
    [`serial${i}`, text(DELIVERY_SERIAL_MAX, "Le numéro de série").optional()],
  ]).flat(),
) as Record<string, z.ZodOptional<ReturnType<typeof text>>>;

const itemsSchema = z.object({ intent: z.literal("delivery-items"), ...itemFields });

const FAILED: Record<FinancerIntent, string> = {
  "lease-hand-off": "Dossier non transmis",
  "financer-answer": "Réponse non enregistrée",
  "delivery-items": "Matériel non enregistré",
};

const WHEN: Record<FinancerIntent, string> = {
  "lease-hand-off": "Le dossier se transmet quand il est complet",
  "financer-answer": "La réponse du financeur s'enregistre une fois le dossier transmis",
  "delivery-items":
    "Le matériel livré se saisit après l'accord du financeur, avant la signature du PV",
};

type Context = { requestId: string; clientIp: string };

/** A step refused by the request's status (or gone): the French reason, with the status now. */
function refusedStep(intent: FinancerIntent, outcome: Exclude<StepOutcome, { kind: "done" }>) {
  if (outcome.kind === "missing") {
    return actionFailure(404, {
      intent,
      error: FAILED[intent],
      description: "Cette demande n'a pas de dossier LOA.",
    });
  }
  const status = CONTACT_STATUS_LABELS[outcome.status as ContactStatus];
  return actionFailure(409, {
    intent,
    error: FAILED[intent],
    description: `${WHEN[intent]} ; la demande est « ${status} ».`,
  });
}

/** The lines typed, in order; a line with only one of its two fields is an error on it. */
function deliveredItems(input: Record<string, string | undefined>) {
  const items: DeliveredItem[] = [];
  const errors: Record<string, string> = {};
  for (let i = 0; i < DELIVERY_ITEMS_MAX; i++) {
    const label = input[`label${i}`] ?? "";
    const serial = input[`serial${i}`] ?? "";
    if (!label && !serial) continue;
    if (!label) errors[`label${i}`] = `Indiquez le matériel de la ligne ${i + 1}.`;
    else if (!serial) errors[`serial${i}`] = `Indiquez le numéro de série de la ligne ${i + 1}.`;
    else items.push({ label, serial });
  }
  if (!items.length && !Object.keys(errors).length) {
    errors.label0 = "Indiquez au moins un matériel livré et son numéro de série.";
  }
  return { items, errors };
}

export async function financerAction(
  request: Request,
  form: FormData,
  context: Context,
  options: { user: AdminUser; id: number; intent: FinancerIntent },
) {
  const { user, id, intent } = options;
  const self = `/admin/contacts/${id}`;
  if (intent === "lease-hand-off") {
    const submission = parseForm(form, handOffSchema);
    if (!submission.success || !submission.data.confirm) {
      // A bare post asks first, as the button's own link does.
      throw redirect(`${self}?transmettre=1#transmission`, { headers: PRIVATE_HEADERS });
    }
    const outcome = await withDatabase("lease hand-off", context, () => handOffLeaseFile(id, user));
    if (outcome.kind !== "done") return refusedStep(intent, outcome);
    return actionDone(
      request,
      context,
      outcome.sentTo ? "leaseFileSent" : "leaseFileSentNoMail",
      self,
      {
        actor: user,
        action: "lease-file-sent",
        target: `demande ${id} : ${outcome.sentTo ? `envoyé à ${outcome.sentTo}` : "sans adresse (archive à télécharger)"}`,
      },
    );
  }
  if (intent === "financer-answer") {
    const submission = parseForm(form, answerSchema);
    if (!submission.success) {
      const { fieldErrors, values } = submission;
      return actionFailure(400, {
        intent,
        error: FAILED[intent],
        description: firstFieldError(fieldErrors, FAILED[intent]),
        fieldErrors,
        values: {
          answer: values.answer.slice(0, 20),
          answeredOn: values.answeredOn.slice(0, 20),
          reference: values.reference.slice(0, 200),
        },
      });
    }
    const { answer, answeredOn } = submission.data;
    const reference = submission.data.reference || null;
    if (answeredOn > parisDay(now())) {
      const message = "La date de la réponse ne peut pas être dans le futur.";
      return actionFailure(400, {
        intent,
        error: FAILED[intent],
        description: message,
        fieldErrors: { answeredOn: message },
        values: { answer, answeredOn, reference: reference ?? "" },
      });
    }
    const outcome = await withDatabase("financer answer", context, () =>
      recordFinancerAnswer(id, { answer, answeredOn, reference }, user),
    );
    if (outcome.kind !== "done") return refusedStep(intent, outcome);
    return actionDone(request, context, "financerAnswerRecorded", self, {
      actor: user,
      action: "financer-answer-recorded",
      target: `demande ${id} : ${answer === "approved" ? "accord" : "refus"} du ${answeredOn}${reference ? ` (réf. ${reference})` : ""}`,
    });
  }
  const submission = parseForm(form, itemsSchema);
  const typed = Object.fromEntries(
    Object.entries(submission.values).map(([name, value]) => [name, value.slice(0, 200)]),
  );
  const read = submission.success ? deliveredItems(submission.data) : undefined;
  const fieldErrors = submission.success ? read!.errors : submission.fieldErrors;
  if (!read || Object.keys(fieldErrors).length) {
    return actionFailure(400, {
      intent,
      error: FAILED[intent],
      description: firstFieldError(fieldErrors, FAILED[intent]),
      fieldErrors,
      values: typed,
    });
  }
  const outcome = await withDatabase("delivered items", context, () =>
    enterDeliveredItems(id, read.items),
  );
  if (outcome.kind !== "done") return refusedStep(intent, outcome);
  return actionDone(request, context, "deliveryItemsSaved", self, {
    actor: user,
    action: "delivery-items-entered",
    target:
      `demande ${id} : ${read.items.map((item) => `${item.label} n° ${item.serial}`).join(", ")}`.slice(
        0,
        500,
      ),
  });
}
