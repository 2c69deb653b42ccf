import { AlarmClock } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, IconCardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { formatDateTime, isoDate } from "~/lib/format";
import { dayLabel } from "./follow-up-mail";

export type FollowUpState = {
  nextActionOn: string | null;
  firstResponseDueAt: Date | string | null;
  firstAnsweredAt: Date | string | null;
  /** Worked out by the loader, on the one clock (the browser's may differ). */
  late: boolean;
  /** Today in Paris: the date field's lowest value. */
  today: string;
  quoteOpenedAt: Date | string | null;
};

/**
 * The request page's follow-up: when the first answer is due (or was given), the quote's first
 * opening, and 'À relancer le' with its two buttons. Plain forms: it works without JavaScript.
 */
export function FollowUpCard({
  action,
  state,
  refused,
}: {
  action: string;
  state: FollowUpState;
  refused?: { value?: string; error?: string };
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "follow-up";
  return (
    <Card className="h-fit">
      <CardHeader>
        <IconCardTitle icon={AlarmClock}>Relance</IconCardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {state.firstAnsweredAt ? (
          <p className="text-muted-foreground">
            Première réponse le{" "}
            <time dateTime={isoDate(state.firstAnsweredAt)}>
              {formatDateTime(state.firstAnsweredAt)}
            </time>
            .
          </p>
        ) : state.firstResponseDueAt ? (
          <p className="flex flex-wrap items-center gap-2">
            {state.late ? <Badge variant="destructive">En retard</Badge> : null}
            <span>
              Première réponse attendue avant le{" "}
              <time dateTime={isoDate(state.firstResponseDueAt)}>
                {formatDateTime(state.firstResponseDueAt)}
              </time>
              .
            </span>
          </p>
        ) : null}
        {state.quoteOpenedAt ? (
          <p className="text-muted-foreground">
            Devis ouvert par le client le{" "}
            <time dateTime={isoDate(state.quoteOpenedAt)}>
              {formatDateTime(state.quoteOpenedAt)}
            </time>
            .
          </p>
        ) : null}
        {state.nextActionOn ? (
          <p>
            À relancer le <strong>{dayLabel(state.nextActionOn)}</strong>.
          </p>
        ) : null}
        <Form method="post" action={action} className="space-y-3">
          <input type="hidden" name="intent" value="follow-up" />
          <Field
            id="next-action"
            label="À relancer le"
            description="La demande figurera dans Mes relances ce jour-là."
            error={refused?.error}
          >
            <Input
              type="date"
              name="nextActionOn"
              min={state.today}
              required
              defaultValue={refused?.value ?? state.nextActionOn ?? ""}
              key={refused?.value ?? state.nextActionOn ?? "none"}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              Enregistrer la relance
            </Button>
            {state.nextActionOn ? (
              <Button
                type="submit"
                name="clear"
                value="1"
                variant="outline"
                formNoValidate
                disabled={busy}
              >
                Retirer
              </Button>
            ) : null}
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
