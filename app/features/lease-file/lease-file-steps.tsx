import { FileArchive, FileDown, Send } from "lucide-react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { formatDateTime } from "~/lib/dates";
import type { LeaseFile } from "./lease-file.server";
import type { LeaseSteps } from "./financer.server";

// The request page's LOA card after the documents (issue 41): the hand-off to the financer, its
// answer, the equipment delivered and the signed delivery report. Plain forms (no JavaScript
// needed); `Transmettre au financeur` asks first (?transmettre=1).

const ARCHIVE_STATUSES = [
  "file_complete",
  "file_sent",
  "financer_approved",
  "financer_refused",
  "delivered",
];
/** Empty lines offered after those entered: saving gives more, up to 20. */
const SPARE_LINES = 3;
const MAX_LINES = 20;

type Refused = {
  intent?: string | null;
  values?: Partial<Record<string, string>>;
  fieldErrors?: Partial<Record<string, string>>;
};

const dayText = (day: string) => day.split("-").reverse().join("/");

function HandOff({
  requestId,
  file,
  steps,
}: {
  requestId: number;
  file: LeaseFile;
  steps: LeaseSteps;
}) {
  const asking = new URLSearchParams(useLocation().search).has("transmettre");
  const self = `/admin/contacts/${requestId}`;
  const { financer } = steps;
  const sent = file.financer;
  return (
    <div className="space-y-3">
      {file.status === "file_complete" ? (
        <>
          <p>
            Toutes les pièces sont reçues : transmettez le dossier à {financer.name}
            {financer.email ? ` (${financer.email})` : " (aucune adresse enregistrée)"}.
          </p>
          <Button asChild>
            <Link to={`${self}?transmettre=1#transmission`} preventScrollReset>
              <Send aria-hidden="true" /> Transmettre au financeur
            </Link>
          </Button>
          <ConfirmDialog
            open={asking}
            id="confirm-hand-off"
            title="Transmettre le dossier au financeur ?"
            description={
              financer.email
                ? `L'archive (devis signé, pièces, synthèse PDF et JSON) part par e-mail à ${financer.name} <${financer.email}>, et la demande passe à « Transmis au financeur ».`
                : `Aucune adresse n'est enregistrée pour ${financer.name} (Barème LOA) : la demande passe à « Transmis au financeur » et vous lui envoyez vous-même l'archive, à télécharger ici.`
            }
            action={self}
            fields={{ intent: "lease-hand-off", confirm: "yes" }}
            confirmLabel="Transmettre"
            cancelTo={self}
          />
        </>
      ) : null}
      {sent.sentAt ? (
        <p>
          Transmis le {formatDateTime(sent.sentAt)}
          {sent.sentTo ? ` par e-mail à ${sent.sentTo}` : " (archive à envoyer par l'équipe)"}.
        </p>
      ) : null}
      {sent.answer ? (
        <p className="font-medium">
          {sent.answer === "approved" ? "Accord" : "Refus"} du financeur du{" "}
          {sent.answeredOn ? dayText(sent.answeredOn) : ""}
          {sent.reference ? `, référence ${sent.reference}` : ""}.
        </p>
      ) : null}
      {ARCHIVE_STATUSES.includes(file.status) ? (
        <p>
          <a
            href={`${self}/dossier.zip`}
            download
            className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
          >
            <FileArchive className="size-4" aria-hidden="true" />
            Télécharger l'archive du dossier (ZIP)
          </a>
        </p>
      ) : null}
    </div>
  );
}

function AnswerForm({ today, refused }: { today: string; refused?: Refused }) {
  const busy = useNavigation().state === "submitting";
  const typed = refused?.values;
  const errors = refused?.fieldErrors ?? {};
  return (
    <Form method="post" className="space-y-3" aria-label="Réponse du financeur">
      <input type="hidden" name="intent" value="financer-answer" />
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Réponse du financeur *</legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ["approved", "Accord"],
              ["refused", "Refus"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name="answer"
                value={value}
                required
                defaultChecked={typed?.answer === value}
                aria-describedby={errors.answer ? "financer-answer-error" : undefined}
              />
              {label}
            </label>
          ))}
        </div>
        {errors.answer ? (
          <p id="financer-answer-error" className="text-sm text-destructive">
            {errors.answer}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="financer-answered-on" label="Date de la réponse *" error={errors.answeredOn}>
          <Input
            name="answeredOn"
            type="date"
            required
            max={today}
            defaultValue={typed?.answeredOn ?? today}
          />
        </Field>
        <Field id="financer-reference" label="Référence du financeur" error={errors.reference}>
          <Input name="reference" maxLength={60} defaultValue={typed?.reference ?? ""} />
        </Field>
      </div>
      <Button type="submit" disabled={busy}>
        Enregistrer la réponse
      </Button>
    </Form>
  );
}

function ItemsForm({ file, refused }: { file: LeaseFile; refused?: Refused }) {
  const busy = useNavigation().state === "submitting";
  const typed = refused?.values;
  const errors = refused?.fieldErrors ?? {};
  const entered = file.delivery.items ?? [];
  const count = Math.min(MAX_LINES, Math.max(entered.length + SPARE_LINES, 1 + SPARE_LINES));
  return (
    <Form method="post" className="space-y-3" aria-label="Matériel livré">
      <input type="hidden" name="intent" value="delivery-items" />
      <p className="text-muted-foreground">
        Une ligne par matériel livré, avec son numéro de série (20 lignes au plus ; enregistrez pour
        en obtenir d'autres vides). Le client les voit et signe le PV de livraison depuis le lien de
        son devis.
      </p>
      <ol className="space-y-2">
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="grid gap-2 sm:grid-cols-[2fr_1fr]">
            <Field
              id={`delivery-label-${i}`}
              label={`Matériel ${i + 1}`}
              error={errors[`label${i}`]}
            >
              <Input
                name={`label${i}`}
                maxLength={120}
                defaultValue={typed?.[`label${i}`] ?? entered[i]?.label ?? ""}
              />
            </Field>
            <Field
              id={`delivery-serial-${i}`}
              label={`N° de série ${i + 1}`}
              error={errors[`serial${i}`]}
            >
              <Input
                name={`serial${i}`}
                maxLength={60}
                defaultValue={typed?.[`serial${i}`] ?? entered[i]?.serial ?? ""}
              />
            </Field>
          </li>
        ))}
      </ol>
      <Button type="submit" disabled={busy}>
        Enregistrer le matériel livré
      </Button>
    </Form>
  );
}

function Delivery({
  file,
  steps,
  refused,
}: {
  file: LeaseFile;
  steps: LeaseSteps;
  refused?: Refused;
}) {
  const report = steps.deliveryReport;
  const { items } = file.delivery;
  return (
    <div className="space-y-3">
      {items?.length ? (
        <ul className="space-y-1" aria-label="Matériel saisi">
          {items.map((item, i) => (
            <li key={`${i}-${item.serial}`}>
              {item.label} — n° de série <span className="font-mono">{item.serial}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {report ? (
        <div className="space-y-1">
          <p className="font-medium">
            PV de livraison signé le {formatDateTime(report.signedAt)} par {report.name} (
            {report.role}).
          </p>
          <p>
            <a
              href={`/admin/signed-documents/${report.id}/pdf`}
              download
              className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
            >
              <FileDown className="size-4" aria-hidden="true" />
              Télécharger le PV signé (PDF)
            </a>
          </p>
          <p className="break-all font-mono text-xs text-muted-foreground">
            SHA-256 {report.sha256}
          </p>
        </div>
      ) : null}
      {file.status === "financer_approved" ? (
        <>
          {items?.length ? (
            <p className="text-muted-foreground">
              En attente de la signature du client (PV de livraison, sur la page de son devis).
            </p>
          ) : null}
          <ItemsForm file={file} refused={refused} />
        </>
      ) : null}
    </div>
  );
}

/** The hand-off, the answer and the delivery, under the documents of the LOA card. */
export function LeaseFileSteps({
  requestId,
  file,
  steps,
  refused,
}: {
  requestId: number;
  file: LeaseFile;
  steps: LeaseSteps;
  /** The refused form's answer, when it was one of these. */
  refused?: Refused;
}) {
  const refusedFor = (intent: string) => (refused?.intent === intent ? refused : undefined);
  const delivering =
    file.status === "financer_approved" || file.status === "delivered" || steps.deliveryReport;
  return (
    <>
      <section id="transmission" aria-labelledby="transmission-heading" className="space-y-3">
        <h3 id="transmission-heading" className="font-semibold">
          Financeur
        </h3>
        <HandOff requestId={requestId} file={file} steps={steps} />
        {file.status === "file_sent" ? (
          <AnswerForm today={steps.today} refused={refusedFor("financer-answer")} />
        ) : null}
      </section>
      {delivering ? (
        <section aria-labelledby="delivery-heading" className="space-y-3">
          <h3 id="delivery-heading" className="font-semibold">
            Livraison
          </h3>
          <Delivery file={file} steps={steps} refused={refusedFor("delivery-items")} />
        </section>
      ) : null}
    </>
  );
}
