import { useState, type ReactElement, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { OfferTypeOptions } from "~/components/offer-type-options";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { OFFER_LIMITS } from "~/lib/limits";
import type { FieldErrors } from "~/lib/field-errors";
import type { OfferField, OfferFormValues } from "~/lib/offer-form";
import { slugify } from "~/lib/slug";

export type OfferFormProps = {
  mode: "create" | "edit";
  offerId?: number;
  values: OfferFormValues;
  fieldErrors: FieldErrors<OfferField>;
  busy: boolean;
  /** Where the form posts (the editor page) and where `Annuler` leads (the list). */
  action: string;
  cancelTo: string;
  /** More buttons beside the submit one (the description preview). */
  extraActions?: ReactNode;
};

/** A field of the offer form: its input is `offer-{field}`, its messages `{field}-error`/`-hint`. */
function OfferFieldBlock({
  field,
  label,
  error,
  hint,
  children,
}: {
  field: OfferField;
  label: string;
  error?: string;
  hint?: string;
  children: ReactElement;
}) {
  return (
    <Field
      id={`offer-${field}`}
      label={label}
      error={error}
      errorId={`${field}-error`}
      description={hint}
      descriptionId={`${field}-hint`}
    >
      {children}
    </Field>
  );
}

/**
 * The create/edit form of spec section 2. It posts to the editor page; every field
 * is a plain input, so it works without JavaScript. While creating, the slug follows the title
 * until the administrator edits it.
 */
export function OfferForm({
  mode,
  offerId,
  values,
  fieldErrors,
  busy,
  action,
  cancelTo,
  extraActions,
}: OfferFormProps) {
  const [title, setTitle] = useState(values.title);
  // A new offer (or a copy) shows the slug its title gives until the administrator types one.
  const [slug, setSlug] = useState(
    values.slug || (mode === "create" ? slugify(values.title).slice(0, OFFER_LIMITS.slug) : ""),
  );
  const [slugEdited, setSlugEdited] = useState(mode === "edit" || values.slug !== "");

  const text = (
    field: OfferField & keyof typeof OFFER_LIMITS,
    label: string,
    options: { required?: boolean; placeholder?: string } = {},
  ) => (
    <OfferFieldBlock
      field={field}
      label={`${label}${options.required ? " *" : ""}`}
      error={fieldErrors[field]}
    >
      <Input
        name={field}
        required={options.required}
        maxLength={OFFER_LIMITS[field]}
        placeholder={options.placeholder}
        defaultValue={values[field] as string}
      />
    </OfferFieldBlock>
  );

  // Optional numbers (issue 13): typed as text with a numeric keyboard, so that '7,68' is accepted.
  const numberField = (
    field:
      | "cpuCores"
      | "ramGb"
      | "storageTb"
      | "bandwidthGbps"
      | "setupFee"
      | "loaMonths"
      | "loaPurchaseOption",
    label: string,
    options: { decimals?: boolean; hint?: string } = {},
  ) => (
    <OfferFieldBlock field={field} label={label} error={fieldErrors[field]} hint={options.hint}>
      <Input
        name={field}
        inputMode={options.decimals ? "decimal" : "numeric"}
        maxLength={16}
        defaultValue={values[field]}
      />
    </OfferFieldBlock>
  );

  return (
    <Form
      method="post"
      action={action}
      className="space-y-6"
      aria-label={mode === "create" ? "Créer une nouvelle offre" : "Modifier l'offre"}
    >
      <input type="hidden" name="intent" value={mode === "create" ? "create" : "update"} />
      {offerId !== undefined ? <input type="hidden" name="id" value={offerId} /> : null}

      <div className="grid gap-5 md:grid-cols-2">
        <OfferFieldBlock field="title" label="Titre *" error={fieldErrors.title}>
          <Input
            name="title"
            required
            maxLength={OFFER_LIMITS.title}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              if (!slugEdited) setSlug(slugify(event.target.value).slice(0, OFFER_LIMITS.slug));
            }}
          />
        </OfferFieldBlock>
        {text("reference", "Référence", { required: true, placeholder: "DED-XXX-000" })}
        <OfferFieldBlock
          field="slug"
          label="Slug (adresse de la page)"
          error={fieldErrors.slug}
          hint="Généré à partir du titre et modifiable. Laissé vide, il est calculé à l'enregistrement ; s'il est déjà pris, un suffixe -1, -2… est ajouté."
        >
          <Input
            name="slug"
            maxLength={OFFER_LIMITS.slug}
            value={slug}
            onChange={(event) => {
              setSlug(event.target.value);
              setSlugEdited(true);
            }}
          />
        </OfferFieldBlock>
        <OfferFieldBlock field="type" label="Type" error={fieldErrors.type}>
          <NativeSelect name="type" defaultValue={values.type}>
            <OfferTypeOptions />
          </NativeSelect>
        </OfferFieldBlock>
        {text("cpu", "Processeur (CPU)", { required: true })}
        {text("ram", "Mémoire RAM", { required: true })}
        {text("storage", "Stockage", { required: true })}
        {text("network", "Réseau")}
        <OfferFieldBlock
          field="price"
          label="Prix (€/mois) *"
          error={fieldErrors.price}
          hint="Hors taxes (HT) : le site affiche aussi le montant TTC."
        >
          <Input
            name="price"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            max={OFFER_LIMITS.priceMax}
            required
            defaultValue={values.price}
          />
        </OfferFieldBlock>
        {text("contractType", "Type de contrat", { placeholder: "Engagement 12 mois" })}
        {numberField("setupFee", "Frais de mise en service (€ HT)", {
          decimals: true,
          hint: "Vide : non précisés. 0 : mise en service offerte.",
        })}
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Caractéristiques chiffrées (facultatives)</legend>
        <p className="text-xs text-muted-foreground">
          Elles servent aux filtres « RAM min » et « Cœurs min » et à la comparaison ; une offre
          sans valeur est écartée quand le filtre est utilisé.
        </p>
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {numberField("cpuCores", "Cœurs CPU")}
          {numberField("ramGb", "RAM (Go)")}
          {numberField("storageTb", "Stockage (To)", { decimals: true })}
          {numberField("bandwidthGbps", "Bande passante (Gbit/s)", { decimals: true })}
        </div>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Location LOA (offres de type Location LOA)</legend>
        <div className="grid gap-5 md:grid-cols-2">
          {numberField("loaMonths", "Durée (mois)")}
          {numberField("loaPurchaseOption", "Option d'achat (€ HT)", { decimals: true })}
        </div>
      </fieldset>

      <OfferFieldBlock
        field="description"
        label="Description (markdown)"
        error={fieldErrors.description}
      >
        <Textarea
          name="description"
          rows={3}
          maxLength={OFFER_LIMITS.description}
          defaultValue={values.description}
        />
      </OfferFieldBlock>

      <div className="grid gap-5 md:grid-cols-2">
        {text("metaTitle", "Titre SEO (meta title)")}
        {text("metaDescription", "Description SEO (meta description)")}
      </div>

      <fieldset className="flex flex-wrap gap-6">
        <legend className="sr-only">Options</legend>
        {(
          [
            ["engagement", "Avec engagement"],
            ["isActive", "Offre active"],
            ["featured", "Offre mise en avant"],
          ] as const
        ).map(([field, label]) => (
          <div key={field} className="flex items-center gap-2">
            <Checkbox id={`offer-${field}`} name={field} defaultChecked={values[field]} />
            <Label htmlFor={`offer-${field}`}>{label}</Label>
          </div>
        ))}
      </fieldset>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner /> : null}
          {mode === "create" ? "Créer l'offre" : "Enregistrer les modifications"}
        </Button>
        {extraActions}
        <Button asChild variant="outline">
          <Link to={cancelTo}>Annuler</Link>
        </Button>
      </div>
    </Form>
  );
}
