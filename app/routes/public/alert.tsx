import { data, redirect } from "react-router";
import { AlertForm } from "~/features/alerts/alert-form";
import { BackLink } from "~/components/ui/back-link";
import { CardPage } from "~/components/card-page";
import { SubscriptionAnswer } from "~/components/subscription-form";
import { alertFormSchema, alertOfferParam } from "~/features/alerts/alert-form-schema";
import { ALERT_MESSAGES, alertSentPath } from "~/features/alerts/alerts";
import { AVAILABLE_NOW } from "~/lib/offer-fields";
import { firstFieldError } from "~/lib/field-errors";
import {
  cacheControl,
  formPageHeaders,
  retryAfter,
  UNAVAILABLE_RETRY_SECONDS,
} from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { unindexedMeta } from "~/routes/public/meta";
import type { RouteHandle } from "~/root";
import { subscribeToAlert } from "~/features/alerts/alerts.server";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, readForm } from "~/platform/form.server";
import { countRefusal } from "~/platform/metrics.server";
import { findActiveOfferBySlug } from "~/features/offers/offer-listing.server";
import type { Route } from "./+types/alert";

// `Me prévenir` (issue 30): where the offer page's form posts (the offer in the address:
// /alertes?offre=<slug>), and the page that answers it without JavaScript: the form again with
// its error, or, after the post/redirect/get, "check your inbox".
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const slug = alertOfferParam.parse(params.get("offre") ?? undefined);
  const offer = slug
    ? await withDatabase("alert offer", context, () => findActiveOfferBySlug(slug))
    : undefined;
  const headers = cacheControl("private");
  if (!offer) return data({ offer: null, sent: false }, { status: 404, headers });
  return data(
    {
      offer: {
        title: offer.title,
        slug: offer.slug,
        available: AVAILABLE_NOW.includes(offer.delivery),
      },
      sent: params.get("envoyee") === "1",
    },
    { headers },
  );
}

type Failure = { error: string; description?: string; email?: string; fieldError?: string };
const failure = (copy: { title: string; description: string }, email?: string): Failure => ({
  error: copy.title,
  description: copy.description,
  email,
});

export async function action({ request, context }: Route.ActionArgs) {
  assertMethod(request, "POST");
  const slug = alertOfferParam.parse(new URL(request.url).searchParams.get("offre") ?? undefined);
  const submission = await readForm(request, alertFormSchema);
  const refuse = (status: number, failure: Failure, headers?: HeadersInit) =>
    data(failure, { status, headers });
  const typed = submission.values.email?.slice(0, 254);
  if (!submission.success) {
    const fieldError = firstFieldError(submission.fieldErrors, ALERT_MESSAGES.invalid.description);
    return refuse(400, {
      error: ALERT_MESSAGES.invalid.title,
      description: fieldError,
      email: typed,
      fieldError,
    });
  }
  const offer = slug
    ? await withDatabase("alert offer", context, () => findActiveOfferBySlug(slug))
    : undefined;
  if (!offer) return refuse(404, failure(ALERT_MESSAGES.missing));
  const result = await subscribeToAlert(
    { offerId: offer.id, email: submission.data.email },
    context,
  );
  switch (result.kind) {
    case "requested":
      throw redirect(alertSentPath(result.slug), 303);
    case "available":
      return refuse(409, failure(ALERT_MESSAGES.available));
    case "missing":
      return refuse(404, failure(ALERT_MESSAGES.missing));
    case "rate-limited":
      countRefusal("alert");
      return refuse(
        429,
        {
          error: ALERT_MESSAGES.rateLimited.title,
          description: `Plusieurs alertes ont été demandées depuis votre connexion. ${retryInMinutes(result.retryAfterSeconds)}`,
          email: typed,
        },
        retryAfter(result.retryAfterSeconds),
      );
    case "failed":
      return refuse(
        503,
        failure(ALERT_MESSAGES.failed, typed),
        retryAfter(UNAVAILABLE_RETRY_SECONDS),
      );
  }
}

export const headers: Route.HeadersFunction = formPageHeaders;

export const meta: Route.MetaFunction = unindexedMeta(
  "Me prévenir — alerte de disponibilité",
  "Recevez un e-mail, une seule fois, quand l'offre est de nouveau disponible.",
);

export default function AlertPage({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, sent } = loaderData;
  const refused = actionData;
  return (
    <CardPage
      title={offer ? `Me prévenir : ${offer.title}` : ALERT_MESSAGES.missing.title}
      above={
        <BackLink to={offer ? `/offers/${offer.slug}` : "/offers"} className="mb-6">
          {offer ? "Retour à l'offre" : "Retour aux offres"}
        </BackLink>
      }
    >
      <SubscriptionAnswer
        refused={refused && { title: refused.error, description: refused.description }}
        missing={offer ? undefined : ALERT_MESSAGES.missing.description}
        sent={sent ? ALERT_MESSAGES.sent : undefined}
      >
        {offer?.available ? (
          <p>{ALERT_MESSAGES.available.description}</p>
        ) : offer ? (
          <AlertForm slug={offer.slug} email={refused?.email} error={refused?.fieldError} />
        ) : null}
      </SubscriptionAnswer>
    </CardPage>
  );
}
