import { z } from "zod";

/** A form's messages by field: the first one of each field, as the page shows beside its input. */
export type FieldErrors<K extends PropertyKey = string> = Partial<Record<K, string>>;

/**
 * What every action answers when it refuses (success is a redirect with a flash toast): a title
 * and a sentence (a toast with JavaScript, a FormAlert without), each field's message, and what was
 * typed, to show again. What a page needs besides goes in a named optional field here, never in a
 * shape of its own.
 */
export type ActionFailure<F extends string = string, V = Partial<Record<F, string>>> = {
  error: string;
  description?: string;
  fieldErrors?: FieldErrors<F>;
  /** What was typed (never a password); a form with check boxes gives its own type. */
  values?: V;
  /** Which of the page's forms was posted, on pages with several (null: none could be read). */
  intent?: string | null;
};

/**
 * The first message of each field of a failed parse, from zod's own flattening (issues are in
 * schema order, so the first is the one the field's own check raised). Form-level issues (no path)
 * are left out: the caller words the form's message.
 */
export function fieldErrors<K extends PropertyKey = string>(error: z.ZodError): FieldErrors<K> {
  const errors: Record<PropertyKey, string> = {};
  for (const [field, messages] of Object.entries(z.flattenError(error).fieldErrors)) {
    const first = (messages as string[] | undefined)?.[0];
    if (first !== undefined) errors[field] = first;
  }
  return errors as FieldErrors<K>;
}

/** The message to show for the whole form: the first field's, else `fallback`. */
export function firstFieldError(errors: FieldErrors<PropertyKey>, fallback: string): string {
  return Object.values(errors).find((message) => message !== undefined) ?? fallback;
}
