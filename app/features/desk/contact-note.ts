import { z } from "zod";
import { CONTACT_NOTE_MAX, CONTROL_CHARACTERS_EXCEPT_LINES } from "~/lib/limits";

export { CONTACT_NOTE_MAX };

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
