import { z } from "zod";
import { CONTROL_CHARACTERS_EXCEPT_LINES } from "./contact";

/** Internal notes on a contact request: as long as a visitor's message at most. */
export const CONTACT_NOTE_MAX = 5000;

export const contactNoteSchema = z
  .string()
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1, "La note est vide.")
      .max(CONTACT_NOTE_MAX, `La note ne doit pas dépasser ${CONTACT_NOTE_MAX} caractères.`)
      .refine(
        (v) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(v),
        "La note contient des caractères non autorisés.",
      ),
  );
