import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { LEASE_DURATIONS, scaled } from "~/lib/offer-price";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { actionFailure, actionDone, parseForm, parseId, readForm } from "~/platform/form.server";
import { readLeaseScale, saveLeaseScale } from "~/features/offers/lease.server";
import { leaseDocumentKindsList } from "~/features/lease-file/lease-file.server";
import { readLeaseFinancer } from "~/features/lease-file/lease-settings.server";
import {
  isLeaseSettingsIntent,
  leaseSettingsAction,
} from "~/features/lease-file/lease-settings-action.server";
import { DocumentKindsSection, FinancerSection } from "~/features/lease-file/lease-settings";
import { log } from "~/platform/log.server";
import type { Route } from "./+types/lease";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Barème LOA");

const PATH = "/admin/lease";
const FAILED = "Erreur lors de l'enregistrement du barème";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "offers");
  const scale = await readLeaseScale();
  // The LOA file's financer and documents (issue 41): an Administrateur's only.
  if (user.role !== "admin") return { scale, file: null };
  const [kinds, financer] = await Promise.all([leaseDocumentKindsList(), readLeaseFinancer()]);
  // `Supprimer` leads here (?remove=ID): the confirmation, with or without JavaScript.
  const removeId = parseId(new URL(request.url).searchParams.get("remove"));
  const pendingRemove = kinds.find((kind) => kind.id === removeId) ?? null;
  return {
    scale,
    file: {
      financer,
      kinds: kinds.map(({ id, title, purpose }) => ({ id, title, purpose })),
      pendingRemove: pendingRemove && {
        id: pendingRemove.id,
        title: pendingRemove.title,
        purpose: pendingRemove.purpose,
      },
    },
  };
}

const coefficient = (months: number) =>
  z
    .string()
    .trim()
    .transform((v) => v.replace(",", "."))
    .refine(
      (v) => v === "" || ((scaled(v, 5) ?? 0) > 0 && Number(v) < 1),
      `Le coefficient à ${months} mois est un nombre entre 0 et 1 avec 5 décimales au plus (ex. 0,03150).`,
    );

const scaleSchema = z.object({
  ...Object.fromEntries(LEASE_DURATIONS.map((m) => [`c${m}`, coefficient(m)])),
  purchaseOptionPercent: z
    .string()
    .trim()
    .transform((v) => v.replace(",", "."))
    .refine(
      (v) => scaled(v, 2) !== undefined && Number(v) <= 100,
      "L'option d'achat est un pourcentage entre 0 et 100 avec 2 décimales au plus.",
    ),
}) as z.ZodType<Record<string, string>>;

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  const form = await readForm(request);
  const intent = form.get("intent");
  if (isLeaseSettingsIntent(intent)) return leaseSettingsAction(request, form, context, intent);
  const submission = parseForm(form, scaleSchema as never);
  if (!submission.success) {
    const { fieldErrors } = submission as { fieldErrors: FieldErrors<string> };
    return actionFailure(400, {
      error: FAILED,
      description: firstFieldError(fieldErrors, FAILED),
      fieldErrors,
    });
  }
  const input = submission.data as Record<string, string>;
  const result = await saveLeaseScale({
    rates: LEASE_DURATIONS.filter((m) => input[`c${m}`]).map((months) => ({
      months,
      coefficient: input[`c${months}`],
    })),
    purchaseOptionPercent: input.purchaseOptionPercent,
  });
  if (result.kind === "unpriced") {
    return actionFailure(409, {
      error: FAILED,
      description: ADMIN_MESSAGES.leaseScaleLeavesOffersUnpriced(result.titles),
    });
  }
  log.info("lease scale saved", { requestId: context.requestId, repriced: result.repriced });
  const rates = LEASE_DURATIONS.filter((m) => input[`c${m}`])
    .map((m) => `${m} mois ${input[`c${m}`]}`)
    .join(", ");
  return actionDone(request, context, "leaseScaleSaved", PATH, {
    actor: user,
    action: "lease-scale-changed",
    target: `barème ${rates || "vide"}, option ${input.purchaseOptionPercent} %`,
  });
}

export default function AdminLease({ loaderData, actionData }: Route.ComponentProps) {
  const { scale, file } = loaderData;
  const busy = useNavigation().state === "submitting";
  // The scale's form posts no intent: the other forms' refusals are theirs.
  const answer = actionData as
    { intent?: string | null; fieldErrors?: Record<string, string> } | undefined;
  const errors = (answer?.intent ? {} : (answer?.fieldErrors ?? {})) as Record<string, string>;
  const coefficientOf = (months: number) =>
    scale.rates.find((r) => r.months === months)?.coefficient ?? "";
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Barème LOA</h1>
      <ActionFailureAlert answer={actionData} />
      <SectionCard
        title="Coefficients du financeur"
        description="Loyer mensuel HT = montant financé HT × coefficient de la durée. Une durée sans coefficient n'est pas proposée. À l'enregistrement, chaque offre LOA avec un montant financé prend pour prix le loyer de sa durée par défaut."
      >
        <Form method="post" action={PATH} className="space-y-5" aria-label="Barème LOA">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {LEASE_DURATIONS.map((months) => (
              <Field
                key={months}
                id={`lease-c${months}`}
                label={`${months} mois`}
                error={errors[`c${months}`]}
              >
                <Input
                  name={`c${months}`}
                  inputMode="decimal"
                  maxLength={12}
                  placeholder="0,03150"
                  defaultValue={coefficientOf(months)}
                />
              </Field>
            ))}
          </div>
          <Field
            id="lease-option"
            label="Option d'achat (% du montant financé)"
            error={errors.purchaseOptionPercent}
          >
            <Input
              name="purchaseOptionPercent"
              inputMode="decimal"
              maxLength={8}
              required
              defaultValue={scale.purchaseOptionPercent}
            />
          </Field>
          <Button type="submit" disabled={busy}>
            Enregistrer le barème
          </Button>
        </Form>
      </SectionCard>
      {file ? (
        <>
          <FinancerSection financer={file.financer} answer={answer} busy={busy} />
          <DocumentKindsSection
            kinds={file.kinds}
            pendingRemove={file.pendingRemove}
            answer={answer}
            busy={busy}
          />
        </>
      ) : null}
    </div>
  );
}
