import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { CardPage } from "~/components/card-page";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Input } from "~/components/ui/input";
import { firstFieldError } from "~/lib/field-errors";
import { cacheControl, formPageHeaders, retryAfter } from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { linkAskSchema } from "~/features/buyer-request/buyer-request-forms";
import { askForLink } from "~/features/buyer-request/request-link-ask.server";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, readForm } from "~/platform/form.server";
import { countRefusal } from "~/platform/metrics.server";
import type { Route } from "./+types/request-link";

// `Retrouver ma demande` (issue 42): a new link to `Ma demande`, asked for by the reference and the
// address. Whether they match or not, the same redirect, the same page, the same words.
export const handle: RouteHandle = { hydrate: false };

const HEADERS = { ...cacheControl("private"), "X-Robots-Tag": "noindex" };
const SENT = "envoyee";

export function loader({ request }: Route.LoaderArgs) {
  const sent = new URL(request.url).searchParams.get("demande") === SENT;
  return data({ sent }, { headers: HEADERS });
}

type Failure = {
  error: string;
  description: string;
  fieldErrors?: Partial<Record<"reference" | "email", string>>;
  values: { reference: string; email: string };
};

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const submission = await readForm(request, linkAskSchema);
  const values = {
    reference: (submission.values.reference ?? "").slice(0, 30),
    email: (submission.values.email ?? "").slice(0, 254),
  };
  if (!submission.success) {
    const error = "Formulaire incomplet";
    return data<Failure>(
      {
        error,
        description: firstFieldError(submission.fieldErrors, error),
        fieldErrors: submission.fieldErrors,
        values,
      },
      { status: 400, headers: HEADERS },
    );
  }
  const result = await withDatabase(
    "request link",
    context,
    () => askForLink(submission.data, { ip: context.clientIp }),
    { headers: HEADERS },
  );
  if (result.kind === "rate-limited") {
    countRefusal("request-link");
    return data<Failure>(
      {
        error: "Trop de demandes",
        description: `Plusieurs liens ont été demandés depuis votre connexion. ${retryInMinutes(result.retryAfterSeconds)}`,
        values,
      },
      { status: 429, headers: { ...HEADERS, ...retryAfter(result.retryAfterSeconds) } },
    );
  }
  throw redirect(`/ma-demande?demande=${SENT}`, { status: 303, headers: HEADERS });
}

export const headers: Route.HeadersFunction = formPageHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Retrouver ma demande",
  "Recevoir par e-mail un nouveau lien pour suivre votre demande.",
);

export default function RequestLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const failure = actionData;
  const errors = failure?.fieldErrors ?? {};
  return (
    <CardPage title="Retrouver ma demande">
      {loaderData.sent && !failure ? (
        <FormAlert
          variant="success"
          title="Demande de lien reçue"
          description="Si cette référence et cette adresse correspondent à une demande, un e-mail avec un nouveau lien vient de partir vers cette adresse. Pensez à regarder dans vos indésirables."
        />
      ) : null}
      {failure ? <FormAlert title={failure.error} description={failure.description} /> : null}
      <p>
        Saisissez la référence de votre demande (elle figure dans l'e-mail de confirmation, de la
        forme DEM-2026-00042) et l'adresse e-mail indiquée dans le formulaire : nous y enverrons un
        nouveau lien pour la suivre.
      </p>
      <Form method="post" action="/ma-demande" className="space-y-4" noValidate={false}>
        <Field id="link-reference" label="Référence de la demande *" error={errors.reference}>
          <Input
            name="reference"
            required
            maxLength={30}
            autoComplete="off"
            placeholder="DEM-2026-00042"
            defaultValue={failure?.values.reference}
          />
        </Field>
        <Field id="link-email" label="Adresse e-mail *" error={errors.email}>
          <Input
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            defaultValue={failure?.values.email}
          />
        </Field>
        <Button type="submit">Recevoir un nouveau lien</Button>
      </Form>
    </CardPage>
  );
}
