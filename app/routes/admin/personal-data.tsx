import { Download, Search, Trash2 } from "lucide-react";
import { useState } from "react";
import { data, Form, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { adminMeta } from "~/routes/admin/meta";
import { CONTACT_LIMITS } from "~/lib/limits";
import {
  erasureFormSchema,
  firstIssue,
  personalDataEmailSchema,
} from "~/features/privacy/personal-data";
import { useHydrated } from "~/hooks/use-hydrated";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { confirmIdentity, recentlyAuthenticated } from "~/features/accounts/own-credentials.server";
import { withDatabase } from "~/platform/availability.server";
import {
  actionFailure,
  actionDone,
  assertMethod,
  parseForm,
  readForm,
} from "~/platform/form.server";
import { ConfirmIdentity } from "~/features/accounts/confirm-identity";
import { confirmIdentityUrl, identityAnswer } from "./confirm-identity.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import {
  addressToken,
  erasePersonalData,
  findPersonalData,
  type PersonalData,
} from "~/features/privacy/personal-data.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/personal-data";
import {
  RequestCard,
  SignedDocumentList,
  When,
  alertState,
  countsText,
  keptText,
} from "~/features/privacy/personal-data-view";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Données personnelles");

type LoaderData =
  | {
      email: string;
      error: null;
      result: PersonalData | null;
      exportHref?: string;
      signedYears?: number;
    }
  | { email: string; error: string; result: null };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  const raw = new URL(request.url).searchParams.get("email");
  if (raw === null) return { email: "", error: null, result: null } satisfies LoaderData;
  // The export asks `Confirmez votre identité` first when the session is not recent.
  const exportHref = (email: string) => {
    const path = `/admin/personal-data/export?email=${encodeURIComponent(email)}`;
    return recentlyAuthenticated(session) ? path : confirmIdentityUrl(path);
  };
  const parsed = personalDataEmailSchema.safeParse(raw);
  if (!parsed.success) {
    return data<LoaderData>(
      { email: raw.slice(0, CONTACT_LIMITS.email), error: firstIssue(parsed.error), result: null },
      { status: 400, headers: PRIVATE_HEADERS },
    );
  }
  const result = await withDatabase("personal data lookup", context, () =>
    findPersonalData(parsed.data),
  );
  // The person is named by the keyed hash of the logs, never by the address.
  await journal.record(context, {
    actor: session.user,
    action: "personal-data-viewed",
    target: `personne ${await addressToken(parsed.data)}`,
  });
  return {
    email: parsed.data,
    error: null,
    result,
    exportHref: exportHref(parsed.data),
    signedYears: env().SIGNED_QUOTE_RETENTION_YEARS,
  } satisfies LoaderData;
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireAdmin(request, "admin");
  assertMethod(request, "POST");
  const form = await readForm(request);
  const parsed = parseForm(form, erasureFormSchema);
  if (!parsed.success) {
    // Shown under the search form, where the address is typed: one sentence, no toast.
    return actionFailure(400, { error: firstIssue(parsed.error) });
  }
  const { email, confirm } = parsed.data;
  if (!confirm) {
    // Without JavaScript the confirmation is a page of its own, with what would be erased.
    const { counts } = await withDatabase("personal data lookup", context, () =>
      findPersonalData(email),
    );
    return data({ status: "confirm" as const, email, counts }, { headers: PRIVATE_HEADERS });
  }
  const unconfirmed = identityAnswer(await confirmIdentity(session, form), form);
  if (unconfirmed) return unconfirmed;
  // The erasure and its journal entry are one transaction.
  const { subject, counts, kept } = await withDatabase("personal data erasure", context, () =>
    erasePersonalData(email, { context, actor: session.user }),
  );
  // That it happened and how much went, never the address: a keyed hash names it.
  log.info("personal data erased", {
    requestId: context.requestId,
    subject,
    ...counts,
    signedDocumentsKept: kept.length,
  });
  // What the law keeps is shown again, on the address's page, under the toast that says so.
  if (kept.length > 0) {
    const to = `/admin/personal-data?email=${encodeURIComponent(email)}`;
    return actionDone(request, context, "personalDataErasedSignedKept", to, null);
  }
  return actionDone(request, context, "personalDataErased", "/admin/personal-data", null);
}

export default function AdminPersonalData({
  loaderData,
  actionData: answer,
}: Route.ComponentProps) {
  const reauth = answer && "reauth" in answer ? answer.reauth : undefined;
  const actionData = answer && !("reauth" in answer) ? answer : undefined;
  const { email, error, result } = loaderData;
  const hydrated = useHydrated();
  // The dialog belongs to the page it was opened on: any navigation (the redirect after the
  // erasure, a new search) closes it.
  const location = useLocation();
  const [confirmingOn, setConfirmingOn] = useState<string | null>(null);
  const confirming = confirmingOn === location.key;
  const setConfirming = (open: boolean) => setConfirmingOn(open ? location.key : null);
  const formError = actionData && "error" in actionData ? actionData.error : error;
  const confirmation = actionData && "counts" in actionData ? actionData : undefined;
  const asked = confirmation ?? (hydrated && result ? { email, counts: result.counts } : undefined);
  // The messages count the stray ones too (issue 40: written to the mailbox, no request found).
  const erasable = result
    ? result.counts.requests + result.counts.alerts + result.counts.messages > 0
    : false;
  const found = erasable || (result?.counts.signedDocuments ?? 0) > 0;
  const signedYears = ("signedYears" in loaderData ? loaderData.signedYears : undefined) ?? 10;
  const keptSentence = (n: number) => (n > 0 ? ` ${keptText(n, signedYears)}.` : "");

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Données personnelles</h1>
        {reauth ? (
          <ConfirmIdentity
            action="/admin/personal-data"
            reauth={reauth}
            cancelTo="/admin/personal-data"
          />
        ) : null}
        <p className="max-w-3xl text-muted-foreground">
          Tout ce que le site conserve sur une adresse e-mail (demandes, notes, historique, e-mails,
          devis signés), pour répondre à une demande d'accès, de portabilité ou d'effacement (RGPD,
          articles 15, 17 et 20). Les devis signés sont conservés pour leur durée légale, même après
          un effacement. La recherche ignore les majuscules.
        </p>
      </div>

      <Form
        method="get"
        action="/admin/personal-data"
        className="flex flex-wrap items-end gap-3"
        aria-label="Rechercher une personne"
      >
        <Field id="personal-data-email" label="Adresse e-mail">
          <Input
            name="email"
            type="email"
            required
            className="w-80"
            maxLength={CONTACT_LIMITS.email}
            defaultValue={email}
            key={email}
            // Its error is the alert under the form (from the search or from an erasure).
            aria-invalid={formError ? true : undefined}
            aria-describedby={formError ? "personal-data-error" : undefined}
          />
        </Field>
        <Button type="submit">
          <Search aria-hidden="true" /> Rechercher
        </Button>
      </Form>

      {formError ? <FormAlert id="personal-data-error">{formError}</FormAlert> : null}

      {/* With JavaScript 'Tout effacer' opens the dialog; without, it posts and the answer asks. */}
      {asked ? (
        <ConfirmDialog
          open={!reauth && (confirmation !== undefined || confirming)}
          inline={confirmation ? true : undefined}
          id="confirm-erase"
          title={`Effacer toutes les données de ${asked.email} ?`}
          description={`Seront supprimés définitivement : ${countsText(asked.counts)}. Cette action est irréversible.${keptSentence(asked.counts.signedDocuments)}`}
          cancelTo={`/admin/personal-data?email=${encodeURIComponent(asked.email)}`}
          onCancel={() => setConfirming(false)}
          action="/admin/personal-data"
          fields={{ intent: "erase", email: asked.email, confirm: "yes" }}
          confirmLabel={
            <>
              <Trash2 aria-hidden="true" /> Confirmer l'effacement
            </>
          }
        />
      ) : null}

      {result && !confirmation ? (
        <section aria-labelledby="personal-data-result" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="personal-data-result" className="text-xl font-semibold">
              Données conservées pour {email}
            </h2>
            {found ? (
              <div className="flex flex-wrap gap-3">
                <Button asChild variant="outline">
                  <a href={loaderData.exportHref}>
                    <Download aria-hidden="true" /> Exporter (JSON)
                  </a>
                </Button>
                {erasable ? (
                  <Form method="post" action="/admin/personal-data">
                    <input type="hidden" name="intent" value="erase" />
                    <input type="hidden" name="email" value={email} />
                    <Button
                      type={hydrated ? "button" : "submit"}
                      variant="destructive"
                      onClick={hydrated ? () => setConfirming(true) : undefined}
                    >
                      <Trash2 aria-hidden="true" /> Tout effacer
                    </Button>
                  </Form>
                ) : null}
              </div>
            ) : null}
          </div>
          {!found ? (
            <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
              Aucune donnée n'est conservée pour cette adresse.
            </p>
          ) : (
            <>
              <p>
                {countsText(result.counts)}.{keptSentence(result.counts.signedDocuments)}
              </p>
              <p className="text-sm text-muted-foreground">
                L'effacement ne touche ni les e-mails déjà reçus par l'équipe commerciale (à
                supprimer de ses boîtes) ni les sauvegardes, qui expirent d'elles-mêmes.
              </p>
              <ul className="space-y-4" aria-label="Demandes de cette personne">
                {result.requests.map((request) => (
                  <li key={request.id}>
                    <RequestCard request={request} />
                  </li>
                ))}
              </ul>
              {result.signedDocuments.length > 0 ? (
                <SignedDocumentList documents={result.signedDocuments} />
              ) : null}
              {result.unattachedMessages.length > 0 ? (
                <ul
                  className="space-y-2"
                  aria-label="Messages reçus non rattachés de cette personne"
                >
                  {result.unattachedMessages.map((message) => (
                    <li key={message.id} className="rounded-lg border bg-background p-4 text-sm">
                      Message reçu le <When date={message.createdAt} />, rattaché à aucune demande :{" "}
                      <span className="font-medium">{message.subject}</span>
                      <p className="whitespace-pre-line">{message.body}</p>
                    </li>
                  ))}
                </ul>
              ) : null}
              {result.alerts.length > 0 ? (
                <ul className="space-y-2" aria-label="Alertes de disponibilité de cette personne">
                  {result.alerts.map((alert) => (
                    <li key={alert.id} className="rounded-lg border bg-background p-4 text-sm">
                      Alerte « Me prévenir » sur {alert.offerTitle} ({alert.offerReference}),
                      demandée le <When date={alert.createdAt} /> : {alertState(alert)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
