import { ArrowRight, CheckCircle2, Clock, Inbox, Package, PackageCheck } from "lucide-react";
import { Link, redirect } from "react-router";
import { homePath } from "~/features/accounts/roles";
import { z } from "zod";
import { MAIL_RETRY_INTENT, MailOutboxCard } from "~/features/mail/mail-outbox-card";
import { IconFact } from "~/components/icon-fact";
import { Button } from "~/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  SectionCard,
} from "~/components/ui/card";
import {
  FirstAnswerChart,
  TopOffersChart,
  WeeklyRequestsChart,
} from "~/features/desk/contact-charts";
import { QuoteAcceptanceChart, WeeklyQuotesChart } from "~/features/quotes/quote-charts";
import { adminMeta } from "~/routes/admin/meta";
import { TOP_OFFER_DAYS } from "~/components/admin/charts";
import { contactCharts } from "~/features/desk/contact-charts.server";
import { requestsBySource } from "~/features/attribution/request-sources.server";
import { SourcesChart } from "~/features/attribution/sources-chart";
import { quoteCharts } from "~/features/quotes/quote-charts.server";
import { offerStats } from "~/features/offers/offers.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { contactRequestStats } from "~/features/desk/contact-counts.server";
import { actionFailure, actionDone, readForm } from "~/platform/form.server";
import { notificationsEnabled } from "~/features/mail/mail-settings.server";
import { mailOutboxOverview, requeueFailedMail } from "~/features/mail/mail-outbox.server";
import type { Route } from "./+types/dashboard";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Tableau de bord");

export async function loader({ request }: Route.LoaderArgs) {
  // Every account lands on /admin after signing in; the dashboard is the Administrateur's.
  const { user } = await requireAdmin(request, "signed-in");
  if (user.role !== "admin") throw redirect(homePath(user.role), { headers: PRIVATE_HEADERS });
  const [offers, contacts, mail, charts, quoteStats, sources] = await Promise.all([
    offerStats(),
    contactRequestStats(),
    mailOutboxOverview(),
    contactCharts(),
    quoteCharts(),
    requestsBySource(TOP_OFFER_DAYS),
  ]);
  return {
    offers,
    contacts,
    mail,
    charts,
    quoteStats,
    sources,
    mailEnabled: notificationsEnabled(),
  };
}

const retryMailSchema = z.object({
  intent: z.literal(MAIL_RETRY_INTENT),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/** Retry of a failed notification e-mail (the outbox card). */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "admin");
  const parsed = await readForm(request, retryMailSchema);
  const failure = (description: string, status: number) =>
    actionFailure(status, { error: "Erreur lors de la relance de l'e-mail", description });
  if (!parsed.success) return failure("Demande de relance non valide.", 400);
  const { kind } = await requeueFailedMail(parsed.data.id, context);
  if (kind === "not-failed") return failure("Cet e-mail n'est plus en échec.", 409);
  if (kind === "failed") return failure("Une erreur inattendue s'est produite", 503);
  return actionDone(request, context, "mailRetried", "/admin", {
    actor: user,
    action: "mail-retried",
    target: `e-mail ${parsed.data.id}`,
  });
}

function StatCard({
  label,
  value,
  icon: Icon,
}: {
  label: string;
  value: number;
  icon: typeof Package;
}) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-4 p-6">
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="text-3xl font-bold">{value}</p>
        </div>
        <Icon className="size-8 text-primary" aria-hidden="true" />
      </CardContent>
    </Card>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { offers, contacts, mail, charts, quoteStats, mailEnabled } = loaderData;
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Tableau de bord</h1>

      <section aria-label="Statistiques" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total offres" value={offers.total} icon={Package} />
        <StatCard label="Offres actives" value={offers.active} icon={PackageCheck} />
        <StatCard label="Total contacts" value={contacts.total} icon={Inbox} />
        <StatCard label="En attente" value={contacts.pending} icon={Clock} />
      </section>

      <SectionCard title="État des demandes">
        <dl className="grid gap-4 sm:grid-cols-3">
          {[
            { label: "En attente", value: contacts.pending, icon: Clock },
            { label: "En cours", value: contacts.inProgress, icon: ArrowRight },
            { label: "Terminées", value: contacts.completed, icon: CheckCircle2 },
          ].map(({ label, value, icon }) => (
            <IconFact key={label} icon={icon} label={label} look="tile">
              {value}
            </IconFact>
          ))}
        </dl>
      </SectionCard>

      <WeeklyRequestsChart weekly={charts.weekly} />
      <div className="grid gap-4 lg:grid-cols-2">
        <TopOffersChart offers={charts.topOffers} days={TOP_OFFER_DAYS} />
        <FirstAnswerChart weeks={charts.firstAnswer} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <WeeklyQuotesChart weekly={quoteStats.weekly} />
        <QuoteAcceptanceChart rate={quoteStats.rate} />
        <SourcesChart sources={loaderData.sources} days={TOP_OFFER_DAYS} />
      </div>

      <MailOutboxCard overview={mail} enabled={mailEnabled} />

      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Gestion des offres</CardTitle>
            <CardDescription>Créez, modifiez et supprimez les offres du catalogue.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to="/admin/offers">Accéder aux offres</Link>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Demandes de contact</CardTitle>
            <CardDescription>Consultez les demandes et mettez à jour leur statut.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to="/admin/contacts">Voir les demandes</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
