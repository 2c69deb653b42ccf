import { data, redirect } from "react-router";
import { z } from "zod";
import { fieldErrors, type ActionFailure, type FieldErrors } from "~/lib/field-errors";
import type { FlashKey } from "~/lib/admin-messages";
import { PRIVATE_HEADERS } from "~/lib/http-headers";
import { withFlash } from "./flash.server";
import { journal, type JournalContext, type JournalEntry } from "./journal.server";

/** Refuses methods other than the one an action expects (405; React Router also calls actions for PUT, PATCH and DELETE). */
export function assertMethod(request: Request, method: "POST" = "POST"): void {
  if (request.method.toUpperCase() !== method) {
    throw data(
      { message: "Cette adresse n'accepte pas ce type de requête." },
      { status: 405, headers: { Allow: method } },
    );
  }
}

/** A schema readForm can fill: an object of text fields, or a union of them on an `intent`. */
type FormObject = z.ZodObject<z.ZodRawShape>;
export type FormSchema = FormObject | z.ZodDiscriminatedUnion<readonly FormObject[]>;

type ObjectFields<O> = O extends z.ZodObject<infer Shape> ? Extract<keyof Shape, string> : never;
/** The names of the fields a form schema reads. */
export type FormFieldName<S extends FormSchema> =
  S extends z.ZodDiscriminatedUnion<infer Options>
    ? ObjectFields<Options[number]>
    : ObjectFields<S>;

/**
 * A form read against its schema. `values` are the fields as typed ('' when not sent), to give back
 * to the page after a refusal; `form` holds what the schema does not read (a honeypot, a return path).
 */
export type Submission<S extends FormSchema> = {
  values: Record<FormFieldName<S>, string>;
  form: FormData;
} & (
  | { success: true; data: z.output<S> }
  | { success: false; error: z.ZodError; fieldErrors: FieldErrors<FormFieldName<S>> }
);

// ActionFailure, what every refused action answers, is in ~/lib/field-errors so that components
// can type their props with it without importing a server module.
export type { ActionFailure };

/**
 * The one way an admin action refuses: `failure` with its status, private (no-store, noindex);
 * `headers` adds to those (a Retry-After, a cookie).
 */
export function actionFailure<F extends string = string, V = Partial<Record<F, string>>>(
  status: number,
  failure: ActionFailure<F, V>,
  headers?: HeadersInit,
) {
  const all = new Headers(headers);
  for (const [name, value] of Object.entries(PRIVATE_HEADERS)) {
    if (!all.has(name)) all.set(name, value);
  }
  return data(failure, { status, headers: all });
}

/**
 * The one way an admin action succeeds: the change goes to the journal (who, what, on what), then
 * the browser to `to` with the flash toast `flash` (post/redirect/get). A security event (an
 * account, a role, a password, a second factor, an erasure) was journaled by its entity command in
 * the transaction of the change itself (`journal.recordWithChange`): its action passes `null`.
 */
export async function actionDone(
  request: Request,
  context: JournalContext,
  flash: FlashKey,
  to: string,
  entry: JournalEntry | null,
): Promise<never> {
  if (entry) await journal.record(context, entry);
  throw redirect(to, { headers: withFlash(request, flash, PRIVATE_HEADERS) });
}

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The one way an action reads its form. Without a schema, the posted FormData; with one, a
 * Submission. Either way the body is read once, and anything else than a readable form is a French
 * 4xx thrown to the error page: 415 for another content type (JSON, plain text...), 400 when the body
 * cannot be parsed (request.formData() would otherwise throw and answer 500). Bodies over the limit
 * never get here (413, http-server/request-body.ts).
 *
 * Each field the schema names is given as text: the first value when repeated, '' when missing or
 * when a file was sent instead. An empty field is given as undefined to a field schema that accepts
 * undefined, so that `.optional()` means "may be left empty".
 */
export async function readForm(request: Request): Promise<FormData>;
export async function readForm<S extends FormSchema>(
  request: Request,
  schema: S,
): Promise<Submission<S>>;
export async function readForm<S extends FormSchema>(
  request: Request,
  schema?: S,
): Promise<FormData | Submission<S>> {
  const form = await readFormData(request);
  if (!schema) return form;
  return parseForm(form, schema);
}

/**
 * A form already read (readForm without a schema) against a schema: for a page whose forms post
 * to one action and differ by more than an intent (the account page).
 */
export function parseForm<S extends FormSchema>(form: FormData, schema: S): Submission<S> {
  const shapes = "shape" in schema ? [schema.shape] : schema.options.map((option) => option.shape);
  const values: Record<string, string> = {};
  const input: Record<string, string | undefined> = {};
  for (const shape of shapes) {
    for (const [name, field] of Object.entries(shape)) {
      if (name in values) continue;
      values[name] = formText(form, name);
      input[name] = values[name] === "" && acceptsEmpty(field) ? undefined : values[name];
    }
  }
  const parsed = schema.safeParse(input);
  const base = { values: values as Record<FormFieldName<S>, string>, form };
  return parsed.success
    ? { ...base, success: true, data: parsed.data as z.output<S> }
    : { ...base, success: false, error: parsed.error, fieldErrors: fieldErrors(parsed.error) };
}

const optionalFields = new WeakMap<z.core.$ZodType, boolean>();

function acceptsEmpty(field: z.core.$ZodType): boolean {
  let optional = optionalFields.get(field);
  if (optional === undefined) {
    optional = z.safeParse(field, undefined).success;
    optionalFields.set(field, optional);
  }
  return optional;
}

async function readFormData(request: Request): Promise<FormData> {
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
