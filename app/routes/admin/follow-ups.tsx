import { AlarmClock } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import { StatusBadge } from "~/features/desk/contact-status";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { adminMeta } from "~/routes/admin/meta";
import { companyLine } from "~/lib/siren";
import { parisDay } from "~/lib/dates";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { followUpAction } from "~/features/follow-ups/follow-up-action.server";
import { dayLabel, reasonLabel } from "~/features/follow-ups/follow-up-mail";
import { followUpsOf, type FollowUp } from "~/features/follow-ups/follow-ups.server";
import { now } from "~/platform/clock.server";
import { actionFailure, idSchema, readForm } from "~/platform/form.server";
import type { Route } from "./+types/follow-ups";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Mes relances");

const PATH = "/admin/relances";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const at = now();
  // Mine, and the late or answered requests nobody owns (everyone's to pick up).
  const [mine, unowned] = await Promise.all([followUpsOf(user.id, at), followUpsOf(null, at)]);
  return { today: parisDay(at), mine, unowned };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "contacts");
  const form = await readForm(request);
  const id = idSchema.safeParse(form.get("id"));
  if (!id.success || form.get("intent") !== "follow-up") {
    return actionFailure(400, {
      error: "Relance non enregistrée",
      description: "Demande non valide.",
    });
  }
  return followUpAction(request, form, context, { user, id: id.data, returnTo: PATH });
}

const REASON_BADGES = {
  late: { label: "En retard", variant: "destructive" },
  replied: { label: "Réponse du client", variant: "default" },
  due: { label: "À relancer", variant: "secondary" },
} as const;

function FollowUpItem({ item }: { item: FollowUp }) {
  const busy = useNavigation().state === "submitting";
  return (
    <li className="space-y-2 rounded-md border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/admin/contacts/${item.id}`} className="font-medium hover:text-primary">
          {item.reference} — {companyLine(item.company, null) ?? item.name}
        </Link>
        <StatusBadge status={item.status} />
        {item.reasons.map((reason) => (
          <Badge key={reason.kind} variant={REASON_BADGES[reason.kind].variant}>
            {REASON_BADGES[reason.kind].label}
          </Badge>
        ))}
      </div>
      <p className="text-sm text-muted-foreground">{item.offerTitle ?? "Demande générale"}</p>
      <ul className="space-y-1 text-sm">
        {item.reasons.map((reason) => (
          <li key={reason.kind}>{reasonLabel(reason)}</li>
        ))}
      </ul>
      {item.nextActionOn ? (
        <Form method="post" action={PATH}>
          <input type="hidden" name="intent" value="follow-up" />
          <input type="hidden" name="id" value={item.id} />
          <input type="hidden" name="nextActionOn" value="" />
          <Button type="submit" name="clear" value="1" size="sm" variant="outline" disabled={busy}>
            Relance faite : retirer la date
          </Button>
        </Form>
      ) : null}
    </li>
  );
}

function FollowUpList({
  title,
  items,
  empty,
}: {
  title: string;
  items: FollowUp[];
  empty: string;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">
          {title} ({items.length})
        </CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="space-y-3" aria-label={title}>
            {items.map((item) => (
              <FollowUpItem key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export default function FollowUpsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { today, mine, unowned } = loaderData;
  const navigation = useNavigation();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <AlarmClock className="size-7 text-primary" aria-hidden="true" /> Mes relances
        </h1>
        <p className="text-sm text-muted-foreground">
          Aujourd'hui, {dayLabel(today)} : les demandes en retard d'abord, puis les réponses des
          clients, puis les relances prévues.
        </p>
      </div>
      <ActionFailureAlert answer={actionData} state={navigation.state} always />
      <FollowUpList
        title="Mes demandes à traiter"
        items={mine}
        empty="Rien à relancer aujourd'hui."
      />
      {unowned.length > 0 ? (
        <FollowUpList
          title="Demandes sans responsable"
          items={unowned}
          empty="Aucune demande sans responsable en attente."
        />
      ) : null}
    </div>
  );
}
