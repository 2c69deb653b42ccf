import { Mail, Phone } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { contactFormSchema } from "~/lib/contact";
import { formatMonthlyPrice } from "~/lib/format";
import { CONTACT_LIMITS } from "~/lib/limits";
import { MESSAGES } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { useHydrated } from "~/lib/use-hydrated";
import { useRootData } from "~/lib/use-site";
import { createContactRequest } from "~/server/contacts.server";
import { log } from "~/server/log.server";
import { listOfferChoices } from "~/server/offers.server";
import { assertSameOrigin } from "~/server/security.server";
import type { Route } from "./+types/contact";

const offerParam = z.coerce
  .number()
  .int()
  .positive()
  .max(2_147_483_647)
  .optional()
  .catch(undefined);

export async function loader({ request }: Route.LoaderArgs) {
  const choices = await listOfferChoices();
  const requested = offerParam.parse(new URL(request.url).searchParams.get("offer") ?? undefined);
  // An unknown or inactive offer in the link is ignored: the form starts on 'Demande générale'.
  const preselected = choices.some((c) => c.id === requested) ? requested : undefined;
  return { choices, preselected };
}

type Values = { name: string; email: string; phone: string; message: string; offer: string };
export type ContactActionData =
  | { status: "sent" }
  | {
      status: "invalid" | "error";
      missing: boolean;
      fieldErrors: Partial<Record<keyof Values, string>>;
      values: Values;
    };

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await request.formData();
  const raw = Object.fromEntries(
    ["name", "email", "phone", "message", "offer"].map((k) => {
      const value = form.get(k);
      return [k, typeof value === "string" ? value : ""];
    }),
  ) as Values;
  const parsed = contactFormSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<keyof Values, string>> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof Values;
      fieldErrors[key] ??= issue.message;
    }
    const missing = (["name", "email", "message"] as const).some((k) => !raw[k].trim());
    return data<ContactActionData>(
      { status: "invalid", missing, fieldErrors, values: raw },
      { status: 400 },
    );
  }
  try {
    const row = await createContactRequest(parsed.data);
    log.info("contact request stored", { requestId: context.requestId, contactId: row.id });
  } catch (error) {
    log.error("contact request failed", { requestId: context.requestId, error });
    return data<ContactActionData>(
      { status: "error", missing: false, fieldErrors: {}, values: raw },
      { status: 503 },
    );
  }
  return data<ContactActionData>({ status: "sent" });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    matches,
    title: "Contactez-nous — devis et informations",
    description:
      "Une question sur nos serveurs dédiés ou nos offres de location LOA ? Écrivez-nous, nous vous répondons dans les plus brefs délais.",
    path: "/contact",
  });

function feedback(result: ContactActionData): { title: string; description: string } {
  if (result.status === "sent") return MESSAGES.contactSent;
  if (result.status === "error") return MESSAGES.contactFailed;
  if (result.missing) return MESSAGES.contactMissing;
  return {
    title: "Formulaire invalide",
    description: Object.values(result.fieldErrors)[0] ?? MESSAGES.contactMissing.description,
  };
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { choices, preselected } = loaderData;
  const { site } = useRootData();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/contact";
  const failed = actionData && actionData.status !== "sent" ? actionData : undefined;
  const values = failed?.values;
  const [formKey, setFormKey] = useState(0);
  const [offerId, setOfferId] = useState(values?.offer ?? preselected?.toString() ?? "");

  useEffect(() => {
    if (!actionData) return;
    const { title, description } = feedback(actionData);
    if (actionData.status === "sent") {
      toast.success(title, { description });
      setFormKey((k) => k + 1);
      setOfferId("");
    } else {
      toast.error(title, { description });
    }
  }, [actionData]);

  const selected = choices.find((c) => String(c.id) === offerId);
  const errors = failed?.fieldErrors ?? {};
  const inline = actionData && !hydrated ? feedback(actionData) : undefined;
  const describedBy = (field: keyof Values) => (errors[field] ? `${field}-error` : undefined);

  return (
    <div className="container mx-auto px-4 py-10">
      <h1 className="mb-8 text-3xl font-bold md:text-4xl">Contactez-nous</h1>
      <div className="grid gap-8 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Envoyez-nous un message</CardTitle>
          </CardHeader>
          <CardContent>
            {inline ? (
              <div
                role={actionData?.status === "sent" ? "status" : "alert"}
                className={
                  actionData?.status === "sent"
                    ? "mb-6 rounded-md border border-success/50 p-4 text-success"
                    : "mb-6 rounded-md border border-destructive/50 p-4 text-destructive"
                }
              >
                <p className="font-semibold">{inline.title}</p>
                <p>{inline.description}</p>
              </div>
            ) : null}
            <Form
              method="post"
              action="/contact"
              key={formKey}
              className="space-y-5"
              aria-label="Formulaire de contact"
            >
              <div className="grid gap-5 sm:grid-cols-2">
                <div className="space-y-2">
                  <Label htmlFor="name">Nom complet *</Label>
                  <Input
                    id="name"
                    name="name"
                    required
                    autoComplete="name"
                    maxLength={CONTACT_LIMITS.name}
                    defaultValue={values?.name}
                    aria-invalid={errors.name ? true : undefined}
                    aria-describedby={describedBy("name")}
                  />
                  <FieldError id="name-error" message={errors.name} />
                </div>
                <div className="space-y-2">
                  <Label htmlFor="email">Email *</Label>
                  <Input
                    id="email"
                    name="email"
                    type="email"
                    required
                    autoComplete="email"
                    maxLength={CONTACT_LIMITS.email}
                    defaultValue={values?.email}
                    aria-invalid={errors.email ? true : undefined}
                    aria-describedby={describedBy("email")}
                  />
                  <FieldError id="email-error" message={errors.email} />
                </div>
              </div>
              <div className="space-y-2">
                <Label htmlFor="phone">Téléphone</Label>
                <Input
                  id="phone"
                  name="phone"
                  type="tel"
                  autoComplete="tel"
                  maxLength={CONTACT_LIMITS.phone}
                  defaultValue={values?.phone}
                  aria-invalid={errors.phone ? true : undefined}
                  aria-describedby={describedBy("phone")}
                />
                <FieldError id="phone-error" message={errors.phone} />
              </div>
              <div className="space-y-2">
                <Label htmlFor="offer">Offre concernée (optionnel)</Label>
                <NativeSelect
                  id="offer"
                  name="offer"
                  value={offerId}
                  onChange={(event) => setOfferId(event.target.value)}
                  aria-invalid={errors.offer ? true : undefined}
                  aria-describedby={describedBy("offer")}
                >
                  <option value="">Demande générale</option>
                  {choices.map((choice) => (
                    <option key={choice.id} value={choice.id}>
                      {choice.title} ({choice.reference})
                    </option>
                  ))}
                </NativeSelect>
                <FieldError id="offer-error" message={errors.offer} />
                {selected ? (
                  <div className="rounded-md border bg-muted/50 p-4 text-sm" aria-live="polite">
                    <p className="font-semibold">Offre sélectionnée :</p>
                    <p>{selected.title}</p>
                    <p className="text-muted-foreground">Réf. {selected.reference}</p>
                    <p className="font-semibold text-primary">
                      {formatMonthlyPrice(selected.price)}
                    </p>
                  </div>
                ) : null}
              </div>
              <div className="space-y-2">
                <Label htmlFor="message">Message *</Label>
                <Textarea
                  id="message"
                  name="message"
                  rows={6}
                  required
                  maxLength={CONTACT_LIMITS.message}
                  defaultValue={values?.message}
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={describedBy("message")}
                />
                <FieldError id="message-error" message={errors.message} />
              </div>
              <Button type="submit" size="lg" disabled={sending} className="w-full sm:w-auto">
                {sending ? <Spinner label="Envoi en cours..." /> : "Envoyer le message"}
              </Button>
            </Form>
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
              <p className="text-sm text-muted-foreground">
                Du lundi au vendredi, de 9h à 18h. Support technique 7 jours sur 7.
              </p>
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}
