import { randomUUID } from "node:crypto";
import { Mail, Phone, X } from "lucide-react";
import { data, Form } from "react-router";
import { z } from "zod";
import companyScriptUrl from "~/client/company-lookup.ts?script";
import contactScriptUrl from "~/client/contact.ts?script";
import { ContactOfferField, ContactOfferSearchForm } from "~/features/desk/contact-offer-field";
import { PrivacyNotice } from "~/features/privacy/privacy-notice";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input, Textarea } from "~/components/ui/input";
import { Spinner } from "~/components/ui/spinner";
import { contactFormSchema } from "~/features/desk/contact-form-schema";
import { COMPANY_MAX, compactSiren, isValidSiren, SIREN_MESSAGES, vatNumberOf } from "~/lib/siren";
import { offerNeedsSiren, withCompanyOfSiren } from "~/features/desk/contact-company.server";
import { companyLookupEnabled } from "~/features/desk/company-lookup.server";
import * as dom from "~/lib/dom-hooks";
import { CONTACT_LIMITS } from "~/lib/limits";
import { ERROR_MESSAGES } from "~/lib/messages";
import { pageMeta } from "~/routes/public/meta";
import {
  CONFIGURATION_FIELD,
  CONFIGURED_OFFER_FIELD,
  configurationLines,
} from "~/lib/offer-options";
import { useRootData } from "~/hooks/use-root-data";
import type { RouteHandle } from "~/root";
import { withDatabase } from "~/platform/availability.server";
import { submitContactRequest } from "~/features/desk/contacts.server";
import { configurationSnapshot } from "~/features/desk/contact-configuration.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";
import { loadContactOfferField } from "~/features/desk/contact-offers.server";
import type { Route } from "./+types/contact";
import {
  cacheControl,
  retryAfter,
  UNAVAILABLE_RETRY_SECONDS,
  VIEW_TOKEN_HEADER,
} from "~/lib/http-headers";
import { answer, configurationParam } from "./contact-answer.server";
import { withSource } from "~/lib/attribution";
import { useVisitSource } from "~/hooks/use-visit-source";
import { attributionOf } from "~/features/attribution/attribution.server";

// Server-rendered; the selected-offer box and the sending state are app/client/contact.ts, the
// toasts app/client/toast.ts (docs/decisions/005).
export const handle: RouteHandle = { hydrate: false, scripts: [contactScriptUrl] };

const offerParam = z.coerce
  .number()
  .int()
  .positive()
  .max(2_147_483_647)
  .optional()
  .catch(undefined);

/** Hidden from visitors (off-screen, skipped by keyboard and screen readers); bots fill it in. */
const HONEYPOT_FIELD = "website";
/**
 * The form's idempotency token: one per page view, stored with the request (unique), so that a
 * double click or a retried post stores one request (docs/decisions/022). The page cache keeps
 * `/contact` for everyone and writes a fresh token into each answer: the loader names its token
 * (VIEW_TOKEN_HEADER), which the page holds once, near its end (http-server/view-token.ts).
 */
const TOKEN_FIELD = "submission";
const tokenSchema = z.uuid().optional();

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const offer = offerParam.parse(params.get("offer") ?? undefined);
  // An unknown or inactive offer in the link is ignored: the form starts on 'Demande générale'.
  // Database unreachable: 503, but the form is still shown (after a refused post, with what was
  // typed), saying to retry.
  const offerField = await withDatabase(
    "contact offer field",
    context,
    () => loadContactOfferField({ offer, offerQuery: params.get("offer_q") }),
    { fallback: () => null },
  );
  const token = randomUUID();
  // The SIREN names its company under the field when SIRENE_API_URL is set (issue 41).
  const companyLookup = companyLookupEnabled();
  // The configuration chosen on the offer page (issue 21), shown and posted back as it came.
  const query = configurationParam.parse(params.get(CONFIGURATION_FIELD) ?? "");
  if (!offerField) {
    return data(
      { offerField, token, companyLookup, configuration: null, configurationQuery: query },
      {
        status: 503,
        headers: { ...cacheControl("private"), ...retryAfter(UNAVAILABLE_RETRY_SECONDS) },
      },
    );
  }
  const preselected = offerField.preselected?.id;
  const configuration = preselected
    ? await withDatabase("contact configuration", context, () =>
        configurationSnapshot(preselected, query),
      )
    : null;
  return data(
    { offerField, token, companyLookup, configuration, configurationQuery: query },
    { headers: { ...cacheControl("private"), [VIEW_TOKEN_HEADER]: token } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const parsed = await readForm(request, contactFormSchema);
  const { form } = parsed;
  const raw = { ...parsed.values, submission: formText(form, TOKEN_FIELD) };
  // A configuration's choices are indices into its offer's options: when the visitor switched to
  // another offer on the form, they mean nothing there and are dropped.
  const configuredFor = formText(form, CONFIGURED_OFFER_FIELD);
  const configuration =
    configuredFor && configuredFor !== parsed.values.offer
      ? ""
      : configurationParam.parse(formText(form, CONFIGURATION_FIELD));
  const token = tokenSchema.safeParse(raw.submission || undefined);
  if (!token.success) return answer({ kind: "expired" }, raw, configuration);
  if (!parsed.success) {
    return answer({ kind: "invalid", fieldErrors: parsed.fieldErrors }, raw, configuration);
  }
  // An LOA is leased to businesses only: its request carries the SIREN (issue 29).
  if (parsed.data.siren === null) {
    const needed = await offerNeedsSiren(parsed.data.offer).catch(() => undefined);
    if (needed === undefined) return answer({ kind: "unavailable" }, raw, configuration);
    if (needed) {
      const fieldErrors = { siren: SIREN_MESSAGES.requiredForLease };
      return answer({ kind: "invalid", fieldErrors }, raw, configuration);
    }
  }
  const honeypot = formText(form, HONEYPOT_FIELD);
  // `Société` left empty: named from the SIREN when the register answers within a second (issue 41).
  const input = honeypot ? parsed.data : await withCompanyOfSiren(parsed.data);
  // Where the visit came from (issue 42): the `src` the page put in the form's address.
  const attribution = attributionOf(new URL(request.url), request.headers.get("referer"));
  const result = await submitContactRequest(
    input,
    { honeypot, token: token.data, configuration, attribution },
    context,
  );
  return answer(result, raw, configuration);
}

// The 429 answer tells clients when to come back.
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Contactez-nous — devis et informations",
    description:
      "Une question sur nos serveurs dédiés ou nos offres de location LOA ? Écrivez-nous, nous vous répondons dans les plus brefs délais.",
    path: "/contact",
  });

/** The one-line fields of the form (the offer and the message have their own controls). */
const TEXT_FIELDS = {
  name: { label: "Nom complet *", required: true, autoComplete: "name" },
  email: { label: "Email *", type: "email", required: true, autoComplete: "email" },
  phone: { label: "Téléphone", type: "tel", autoComplete: "tel" },
  company: { label: "Société", autoComplete: "organization" },
} as const;

/** The VAT number of a SIREN as typed, when it is one (shown under the field). */
function typedVatNumber(siren: string | undefined): string {
  const compact = compactSiren(siren ?? "");
  return isValidSiren(compact) ? vatNumberOf(compact) : "";
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { offerField, token, companyLookup } = loaderData;
  const { site } = useRootData();
  const src = useVisitSource();
  const failed = actionData;
  // After a refused post the configuration comes back with the form, not in the address.
  const { configuration, configurationQuery } = failed ?? loaderData;
  const values = failed?.values;
  // After a failure the form keeps what was typed, its token too: sending it again stores one request.
  const offerId = values?.offer ?? offerField?.preselected?.id.toString() ?? "";
  const errors = failed?.fieldErrors ?? {};
  const result = failed
    ? { title: failed.error, description: failed.description }
    : offerField
      ? undefined
      : { title: ERROR_MESSAGES.unavailable.title, description: ERROR_MESSAGES.unavailable.detail };
  const textField = (name: keyof typeof TEXT_FIELDS) => {
    const { label, ...input } = TEXT_FIELDS[name];
    return (
      <Field id={name} label={label} error={errors[name]}>
        <Input
          name={name}
          maxLength={name === "company" ? COMPANY_MAX : CONTACT_LIMITS[name]}
          defaultValue={values?.[name]}
          {...input}
        />
      </Field>
    );
  };

  return (
    <div className="container mx-auto px-4 py-10">
      <h1 className="mb-8 text-3xl font-bold md:text-4xl">Contactez-nous</h1>
      <div className="grid gap-8 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Envoyez-nous un message</CardTitle>
          </CardHeader>
          <CardContent>
            {result ? (
              // Inline without JavaScript; app/client/toast.ts turns it into a dismissible toast.
              <FormAlert
                variant="error"
                {...dom.hook(dom.TOAST, "error")}
                className="mb-6"
                title={result.title}
                description={result.description}
              >
                <button
                  type="button"
                  {...dom.hook(dom.TOAST_CLOSE)}
                  className="absolute right-2 top-2 hidden rounded-md p-1 text-muted-foreground hover:bg-accent"
                  aria-label="Fermer"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </FormAlert>
            ) : null}
            <Form
              method="post"
              action={withSource("/contact", src)}
              className="space-y-5"
              aria-label="Formulaire de contact"
              {...dom.hook(dom.CONTACT_FORM)}
            >
              <div className="grid gap-5 sm:grid-cols-2">
                {textField("name")}
                {textField("email")}
              </div>
              {textField("phone")}
              <div className="grid gap-5 sm:grid-cols-2">
                {textField("company")}
                <div className="space-y-2">
                  <Field
                    id="siren"
                    label="SIREN"
                    error={errors.siren}
                    description="9 chiffres ; obligatoire pour une location LOA, réservée aux professionnels."
                  >
                    <Input
                      name="siren"
                      inputMode="numeric"
                      autoComplete="off"
                      maxLength={20}
                      defaultValue={values?.siren}
                    />
                  </Field>
                  {companyLookup ? (
                    <>
                      <p
                        className="line-clamp-2 text-sm text-muted-foreground"
                        aria-live="polite"
                        {...dom.hook(dom.COMPANY_LOOKUP, "/entreprise")}
                      />
                      <script src={companyScriptUrl} defer />
                    </>
                  ) : null}
                </div>
              </div>
              <p className="text-sm text-muted-foreground">
                N° TVA :{" "}
                <output {...dom.hook(dom.VAT_NUMBER)}>{typedVatNumber(values?.siren)}</output>{" "}
                {/* Shown: without JavaScript the number appears only after a post, say where it comes from. */}
                <span>(calculé à partir du SIREN)</span>
              </p>
              {offerField ? (
                <ContactOfferField
                  field={offerField}
                  value={offerId}
                  postedChoice={failed?.offerChoice}
                  error={errors.offer}
                />
              ) : (
                // The database is unreachable: the chosen offer is kept as posted.
                <input type="hidden" name="offer" value={offerId} />
              )}
              {!configuration && configurationQuery ? (
                // Not readable now (the database is unreachable): kept as posted.
                <>
                  <input type="hidden" name={CONFIGURATION_FIELD} value={configurationQuery} />
                  <input type="hidden" name={CONFIGURED_OFFER_FIELD} value={offerId} />
                </>
              ) : null}
              {configuration ? (
                <div
                  className="rounded-md border bg-muted/40 p-4 text-sm"
                  {...dom.hook(dom.CONFIGURED_OFFER, offerId)}
                >
                  <input type="hidden" name={CONFIGURATION_FIELD} value={configuration.query} />
                  <input type="hidden" name={CONFIGURED_OFFER_FIELD} value={offerId} />
                  <p className="mb-2 font-medium">Configuration choisie</p>
                  <ul className="space-y-1" aria-label="Configuration choisie">
                    {configurationLines(configuration, site.pricing).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                  {/* Without JavaScript the box stays when another offer is chosen: say so. */}
                  <p className="mt-2 text-muted-foreground">
                    Elle vaut pour cette offre : si vous en choisissez une autre, elle n'est pas
                    transmise.
                  </p>
                </div>
              ) : null}
              <Field id="message" label="Message *" error={errors.message}>
                <Textarea
                  name="message"
                  rows={6}
                  required
                  maxLength={CONTACT_LIMITS.message}
                  defaultValue={values?.message}
                />
              </Field>
              <div
                aria-hidden="true"
                className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden"
              >
                <label htmlFor={HONEYPOT_FIELD}>Laissez ce champ vide</label>
                <input
                  id={HONEYPOT_FIELD}
                  name={HONEYPOT_FIELD}
                  type="text"
                  tabIndex={-1}
                  autoComplete="off"
                  defaultValue=""
                />
              </div>
              <PrivacyNotice />
              {/* Last in the form: the page cache replaces it in each answer (see TOKEN_FIELD). */}
              <input
                type="hidden"
                name={TOKEN_FIELD}
                defaultValue={values?.submission || token}
                autoComplete="off"
              />
              <Button type="submit" size="lg" className="w-full sm:w-auto">
                <span {...dom.hook(dom.SUBMIT_IDLE)}>Envoyer le message</span>
                <span {...dom.hook(dom.SUBMIT_SENDING)} hidden>
                  <Spinner label="Envoi en cours..." />
                </span>
              </Button>
            </Form>
            {offerField ? <ContactOfferSearchForm field={offerField} value={offerId} /> : null}
          </CardContent>
        </Card>
        <aside>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Nos coordonnées</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <a
                href={`mailto:${site.email}`}
                className="flex items-center gap-3 hover:text-primary"
              >
                <Mail className="size-5 text-primary" aria-hidden="true" />
                {site.email}
              </a>
              <a
                href={`tel:${site.phone.replace(/[^\d+]/g, "")}`}
                className="flex items-center gap-3 hover:text-primary"
              >
                <Phone className="size-5 text-primary" aria-hidden="true" />
                {site.phone}
              </a>
              {/* Opening hours are the provider's own promise (SITE_HOURS); none by default. */}
              {site.claims.hours ? (
                <p className="text-sm text-muted-foreground">{site.claims.hours}</p>
              ) : null}
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}
