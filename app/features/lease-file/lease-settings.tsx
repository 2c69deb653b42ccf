import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { Form } from "react-router";
import { RemoveLink } from "~/components/admin/row-actions";
import { Button } from "~/components/ui/button";
import { Card, CardContent, SectionCard } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";

// `Barème LOA`'s sections for the LOA file (issue 41): the financer, and the documents it asks
// for. Plain forms: every one works without JavaScript.

const PATH = "/admin/lease";
const LIMITS = { financerName: 120, financerEmail: 254, title: 120, purpose: 300 } as const;

type Kind = { id: number; title: string; purpose: string };
type Refused = {
  intent?: string | null;
  values?: Partial<Record<string, string>>;
  fieldErrors?: Partial<Record<string, string>>;
};

/** The refused form's values and errors when `intent` (and `id`) name this form. */
function refusedFor(answer: Refused | undefined, intent: string, id?: number) {
  if (!answer || answer.intent !== intent || !answer.values) return undefined;
  if (id !== undefined && answer.values.id !== String(id)) return undefined;
  return { values: answer.values, errors: answer.fieldErrors ?? {} };
}

export function FinancerSection({
  financer,
  answer,
  busy,
}: {
  financer: { name: string; email: string | null };
  answer?: Refused;
  busy: boolean;
}) {
  const refused = refusedFor(answer, "financer");
  const typed = refused?.values;
  return (
    <SectionCard
      title="Financeur"
      description="Le dossier LOA complet lui est transmis depuis la page de la demande (« Transmettre au financeur ») : par e-mail, archive jointe, quand son adresse est indiquée ; sinon l'équipe télécharge l'archive et la lui envoie."
    >
      <Form
        method="post"
        action={PATH}
        className="grid gap-4 sm:grid-cols-2"
        aria-label="Financeur"
        key={typed ? `refused-${typed.financerName}-${typed.financerEmail}` : "saved"}
      >
        <input type="hidden" name="intent" value="financer" />
        <Field id="financer-name" label="Nom du financeur *" error={refused?.errors.financerName}>
          <Input
            name="financerName"
            required
            maxLength={LIMITS.financerName}
            defaultValue={typed?.financerName ?? financer.name}
          />
        </Field>
        <Field
          id="financer-email"
          label="Adresse e-mail des dossiers"
          description="Vide : l'archive n'est envoyée à personne."
          error={refused?.errors.financerEmail}
        >
          <Input
            name="financerEmail"
            type="email"
            maxLength={LIMITS.financerEmail}
            defaultValue={typed?.financerEmail ?? financer.email ?? ""}
            placeholder="dossiers@financeur.example"
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            Enregistrer le financeur
          </Button>
        </div>
      </Form>
    </SectionCard>
  );
}

function KindForm({ kind, answer, busy }: { kind?: Kind; answer?: Refused; busy: boolean }) {
  const intent = kind ? "kind-update" : "kind-add";
  const refused = refusedFor(answer, intent, kind?.id);
  const typed = refused?.values;
  const prefix = kind ? `kind-${kind.id}` : "kind-new";
  return (
    <Form
      method="post"
      action={PATH}
      className="space-y-3"
      aria-label={kind ? `Modifier la pièce ${kind.title}` : "Nouvelle pièce"}
      key={
        typed ? `refused-${typed.title}-${typed.purpose}` : `saved-${kind?.title}-${kind?.purpose}`
      }
    >
      <input type="hidden" name="intent" value={intent} />
      {kind ? <input type="hidden" name="id" value={kind.id} /> : null}
      <Field id={`${prefix}-title`} label="Pièce *" error={refused?.errors.title}>
        <Input
          name="title"
          required
          maxLength={LIMITS.title}
          defaultValue={typed?.title ?? kind?.title ?? ""}
          placeholder={kind ? undefined : "Attestation d'assurance"}
        />
      </Field>
      <Field
        id={`${prefix}-purpose`}
        label="À quoi elle sert (lu par le client) *"
        error={refused?.errors.purpose}
      >
        <Textarea
          name="purpose"
          rows={2}
          required
          maxLength={LIMITS.purpose}
          defaultValue={typed?.purpose ?? kind?.purpose ?? ""}
        />
      </Field>
      <Button type="submit" size="sm" disabled={busy}>
        {kind ? (
          "Enregistrer"
        ) : (
          <>
            <Plus aria-hidden="true" /> Ajouter la pièce
          </>
        )}
      </Button>
    </Form>
  );
}

function MoveButton({ kind, direction }: { kind: Kind; direction: "up" | "down" }) {
  const up = direction === "up";
  return (
    <Form method="post" action={PATH}>
      <input type="hidden" name="intent" value="kind-move" />
      <input type="hidden" name="id" value={kind.id} />
      <input type="hidden" name="direction" value={direction} />
      <Button
        type="submit"
        variant="outline"
        size="sm"
        aria-label={`${up ? "Monter" : "Descendre"} la pièce ${kind.title}`}
      >
        {up ? <ArrowUp aria-hidden="true" /> : <ArrowDown aria-hidden="true" />}
        {up ? "Monter" : "Descendre"}
      </Button>
    </Form>
  );
}

export function DocumentKindsSection({
  kinds,
  pendingRemove,
  answer,
  busy,
}: {
  kinds: Kind[];
  pendingRemove: Kind | null;
  answer?: Refused;
  busy: boolean;
}) {
  return (
    <SectionCard
      title="Pièces demandées au client"
      description="La liste du dossier LOA, dans cet ordre, sur la page du devis accepté. Un dossier en cours suit la liste : une pièce ajoutée le rend incomplet, une pièce retirée n'est plus attendue (ce qui a été reçu reste au dossier)."
    >
      <div className="space-y-6">
        <ConfirmDialog
          open={pendingRemove !== null}
          id="confirm-remove-kind"
          title="Retirer cette pièce de la liste ?"
          description={`« ${pendingRemove?.title} » ne sera plus demandée aux clients. Les fichiers déjà reçus restent dans leurs dossiers.`}
          action={PATH}
          fields={{ intent: "kind-remove", id: pendingRemove?.id ?? "", confirm: "yes" }}
          confirmLabel="Retirer"
          cancelTo={PATH}
        />
        {kinds.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Aucune pièce demandée : un dossier est complet dès l'acceptation du devis.
          </p>
        ) : (
          <ol className="space-y-4" aria-label="Pièces demandées">
            {kinds.map((kind, index) => (
              <li key={kind.id}>
                <Card>
                  <CardContent className="space-y-4 pt-6">
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <h3 className="font-medium">
                        {index + 1}. {kind.title}
                      </h3>
                      <div className="flex flex-wrap gap-2">
                        {index > 0 ? <MoveButton kind={kind} direction="up" /> : null}
                        {index < kinds.length - 1 ? (
                          <MoveButton kind={kind} direction="down" />
                        ) : null}
                        <RemoveLink
                          to={`${PATH}?remove=${kind.id}`}
                          label={`Supprimer la pièce ${kind.title}`}
                        />
                      </div>
                    </div>
                    <KindForm kind={kind} answer={answer} busy={busy} />
                  </CardContent>
                </Card>
              </li>
            ))}
          </ol>
        )}
        <section aria-labelledby="kind-new-heading" className="space-y-3">
          <h3 id="kind-new-heading" className="font-medium">
            Ajouter une pièce
          </h3>
          <KindForm answer={answer} busy={busy} />
        </section>
      </div>
    </SectionCard>
  );
}
