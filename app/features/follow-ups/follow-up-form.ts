import { z } from "zod";

// 'À relancer le' (issue 40): the field of the request's page and of the list's bulk form. A day
// in Paris, today or later, within two years; empty, or `Retirer`, clears it.

export const NEXT_ACTION_MAX_DAYS = 731;

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The day field, judged against today in Paris ('2026-11-28'). */
export function nextActionDaySchema(today: string) {
  return z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Indiquez une date (jj/mm/aaaa).")
    .refine((day) => {
      const date = new Date(`${day}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
    }, "Cette date n'existe pas.")
    .refine((day) => day >= today, "Choisissez aujourd'hui ou une date à venir.")
    .refine(
      (day) => day <= addDays(today, NEXT_ACTION_MAX_DAYS),
      "Choisissez une date dans les deux ans.",
    );
}

/** The request page's form: a day to set, or `clear` (`Retirer`) to take it off. */
export function followUpFormSchema(today: string) {
  return z
    .object({
      intent: z.literal("follow-up"),
      clear: z.literal("1").optional(),
      nextActionOn: z.string(),
    })
    .superRefine((form, ctx) => {
      if (form.clear) return;
      const day = nextActionDaySchema(today).safeParse(form.nextActionOn);
      if (!day.success) {
        ctx.addIssue({
          code: "custom",
          path: ["nextActionOn"],
          message: day.error.issues[0]?.message ?? "Date non valide.",
        });
      }
    });
}

export type FollowUpFields = "nextActionOn";
