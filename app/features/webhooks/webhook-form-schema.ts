import { z } from "zod";
import {
  WEBHOOK_EVENT_TABLE,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  type WebhookEvent,
  type WebhookEventField,
} from "./webhooks";

/**
 * An endpoint's address: `https://`, no user name or password in it. `allowHttp`
 * (WEBHOOK_ALLOW_PRIVATE): `http://` too, which the server then lets reach private addresses only.
 */
export function webhookUrlSchema(options: { allowHttp: boolean }) {
  return z
    .string()
    .trim()
    .min(1, "Saisissez l'adresse du webhook.")
    .max(WEBHOOK_URL_MAX, `L'adresse fait au plus ${WEBHOOK_URL_MAX} caractères.`)
    .transform((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "Adresse non valide (https://…)." });
        return z.NEVER;
      }
      if (url.protocol !== "https:" && !(options.allowHttp && url.protocol === "http:")) {
        ctx.addIssue({
          code: "custom",
          message: options.allowHttp
            ? "L'adresse doit commencer par https:// (ou http:// vers une adresse locale ou privée)."
            : "L'adresse doit commencer par https:// : les données des demandes ne circulent que chiffrées.",
        });
        return z.NEVER;
      }
      if (url.username || url.password) {
        ctx.addIssue({
          code: "custom",
          message: "L'adresse ne doit pas contenir d'identifiant ni de mot de passe.",
        });
        return z.NEVER;
      }
      return url;
    });
}

const checked = z.enum(["on"]).optional();

const eventFields = Object.fromEntries(
  WEBHOOK_EVENTS.map((event) => [WEBHOOK_EVENT_TABLE[event].field, checked]),
) as Record<WebhookEventField, typeof checked>;

/** The field the "no event chosen" error is shown on: the first check box. */
export const FIRST_EVENT_FIELD = WEBHOOK_EVENT_TABLE[WEBHOOK_EVENTS[0]].field;

type EventChoices = Partial<Record<WebhookEventField, "on">>;

/** The events a valid creation form asks for (one check box per line of WEBHOOK_EVENT_TABLE). */
export function chosenEvents(form: EventChoices): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) => form[WEBHOOK_EVENT_TABLE[event].field] === "on");
}

/** The new endpoint's form: its address and at least one event (one checkbox each). */
export function webhookCreateSchema(options: { allowHttp: boolean }) {
  return z
    .object({ intent: z.literal("create"), url: webhookUrlSchema(options), ...eventFields })
    .superRefine((value, ctx) => {
      if (chosenEvents(value).length === 0) {
        ctx.addIssue({
          code: "custom",
          path: [FIRST_EVENT_FIELD],
          message: "Choisissez au moins un événement.",
        });
      }
    });
}
