import { z } from "zod";

/** A form's messages by field: the first one of each field, as the page shows beside its input. */
export type FieldErrors<K extends PropertyKey = string> = Partial<Record<K, string>>;

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
