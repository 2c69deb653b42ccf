import { Eye } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useNavigation } from "react-router";
import { OfferForm, type OfferFormProps } from "./offer-form-fields";
import { Markdown } from "~/components/markdown";
import { Button } from "~/components/ui/button";
import { BackLink } from "~/components/ui/back-link";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import type { ActionFailure } from "~/lib/field-errors";
import type { OfferField, OfferFormValues } from "./offer-form";
import { useHydrated } from "~/hooks/use-hydrated";

/**
 * What the editor's action answers without redirecting: a refusal with the typed values, or the
 * preview asked without JavaScript (the typed values, unsaved).
 */
export type OfferEditorAnswer =
  ActionFailure<OfferField, OfferFormValues> | { preview: true; values: OfferFormValues };

export type OfferEditorProps = {
  mode: "create" | "edit";
  offerId?: number;
  /** The values to start from: the stored offer, or a copy. */
  values: OfferFormValues;
  /** The action's answer: a refusal, or a `Prévisualiser` post (without JavaScript), with what was typed. */
  answer?: OfferEditorAnswer;
  /** This page's own address (the form posts here) and the list to go back to. */
  action: string;
  returnTo: string;
  /** A key that changes when the form must start afresh (another offer, another copy). */
  formKey: string;
  note?: string;
  /** The options of the form's `reference` fields (datacenters). */
  references: OfferFormProps["references"];
  scale: OfferFormProps["scale"];
};

/**
 * The editor pages (/admin/offers/new, /admin/offers/{id}): the offer form and a preview of the
 * description. With JavaScript the preview follows the typing; without, `Prévisualiser` posts
 * the form and the page comes back with the preview and the typed values, nothing saved.
 */
export function OfferEditor(props: OfferEditorProps) {
  const { mode, answer, returnTo } = props;
  const values = answer?.values ?? props.values;
  const previewRequested = answer !== undefined && "preview" in answer;
  const fieldErrors = answer && "fieldErrors" in answer ? answer.fieldErrors : undefined;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [showPreview, setShowPreview] = useState(previewRequested);
  const [description, setDescription] = useState(values.description);
  const heading = mode === "create" ? "Créer une nouvelle offre" : "Modifier l'offre";

  useEffect(() => {
    setDescription(values.description);
    if (previewRequested) setShowPreview(true);
  }, [values, previewRequested]);

  // The form's fields stay uncontrolled: the preview listens to the description's input events.
  const onInput = (event: FormEvent<HTMLDivElement>) => {
    const target = event.target as HTMLTextAreaElement;
    if (target.name === "description") setDescription(target.value);
  };

  const previewButton = hydrated ? (
    <Button
      type="button"
      variant="secondary"
      aria-pressed={showPreview}
      // Only while the preview is in the page: an id that names nothing is an invalid value.
      aria-controls={showPreview ? "description-preview" : undefined}
      onClick={() => setShowPreview((open) => !open)}
    >
      <Eye aria-hidden="true" /> Prévisualiser
    </Button>
  ) : (
    <Button type="submit" name="preview" value="1" variant="secondary" formNoValidate>
      <Eye aria-hidden="true" /> Prévisualiser
    </Button>
  );

  return (
    <div className="space-y-6">
      <BackLink to={returnTo}>Retour à la liste des offres</BackLink>
      <h1 className="text-3xl font-bold">Gestion des offres</h1>

      <ActionFailureAlert answer={answer} />

      <Card>
        <CardHeader>
          <CardTitle as="h2">{heading}</CardTitle>
          {props.note ? <p className="text-sm text-muted-foreground">{props.note}</p> : null}
        </CardHeader>
        <CardContent className="space-y-6">
          <div onInput={onInput}>
            <OfferForm
              key={props.formKey}
              mode={mode}
              offerId={props.offerId}
              values={values}
              fieldErrors={fieldErrors ?? {}}
              busy={busy}
              action={props.action}
              cancelTo={returnTo}
              extraActions={previewButton}
              references={props.references}
              scale={props.scale}
            />
          </div>
          {showPreview ? (
            <section
              id="description-preview"
              aria-labelledby="description-preview-title"
              className="space-y-3 rounded-lg border bg-background p-4"
            >
              <h3 id="description-preview-title" className="font-semibold">
                Aperçu de la description
              </h3>
              {description.trim() ? (
                <Markdown>{description}</Markdown>
              ) : (
                <p className="text-sm text-muted-foreground">La description est vide.</p>
              )}
            </section>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
