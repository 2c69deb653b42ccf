import { z } from "zod";
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type WebhookEvent } from "./webhooks";

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

/** The new endpoint's form: its address and at least one event (one checkbox each). */
export function webhookCreateSchema(options: { allowHttp: boolean }) {
  return z
    .object({
      intent: z.literal("create"),
      url: webhookUrlSchema(options),
      created: checked,
      updated: checked,
    })
    .superRefine((value, ctx) => {
      if (!value.created && !value.updated) {
        ctx.addIssue({
          code: "custom",
          path: ["created"],
          message: "Choisissez au moins un événement.",
        });
      }
    });
}

/** The events a valid creation form asks for. */
export function chosenEvents(form: { created?: "on"; updated?: "on" }): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) =>
    event === "request.created" ? form.created === "on" : form.updated === "on",
  );
}
