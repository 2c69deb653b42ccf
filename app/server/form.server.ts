import { data } from "react-router";
import { z } from "zod";

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** Refuses methods other than the one an action expects (405; React Router also calls actions for PUT, PATCH and DELETE). */
export function assertMethod(request: Request, method: "POST" = "POST"): void {
  if (request.method.toUpperCase() !== method) {
    throw data(
      { message: "Cette adresse n'accepte pas ce type de requête." },
      { status: 405, headers: { Allow: method } },
    );
  }
}

/**
 * The posted form, or a French 4xx: 415 for another content type (JSON, plain text...), 400 when
 * the body cannot be parsed. request.formData() would otherwise throw and answer 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.has(type)) {
    throw data(
      { message: "Format de requête non pris en charge : envoyez le formulaire depuis le site." },
      { status: 415 },
    );
  }
  try {
    return await request.formData();
  } catch {
    throw data({ message: "Le formulaire envoyé est illisible." }, { status: 400 });
  }
}

/** One text field: the first value when repeated, '' when missing or when a file was sent instead. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** A row id as written in a URL or a form: digits only, within PostgreSQL's integer. */
export const idSchema = z
  .string()
  .trim()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().max(2_147_483_647));

/** The id in `value`, or undefined for anything else (lenient: junk is simply no id). */
export function parseId(value: unknown): number | undefined {
  const parsed = idSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
