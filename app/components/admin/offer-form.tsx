import { useState, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { OFFER_TYPE_LABELS, OFFER_TYPES } from "~/lib/domain";
import { OFFER_LIMITS } from "~/lib/limits";
import type { OfferField, OfferFormValues } from "~/lib/offer-form";
import { slugify } from "~/lib/slug";

export type OfferFormProps = {
  mode: "create" | "edit";
  offerId?: number;
  values: OfferFormValues;
  fieldErrors: Partial<Record<OfferField, string>>;
  busy: boolean;
  /** Where the form posts (the editor page) and where `Annuler` leads (the list). */
  action: string;
  cancelTo: string;
  /** More buttons beside the submit one (the description preview). */
  extraActions?: ReactNode;
};

function FieldError({ field, message }: { field: string; message?: string }) {
  return message ? (
    <p id={`${field}-error`} className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
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

  const invalid = (field: OfferField) =>
    fieldErrors[field]
      ? { "aria-invalid": true as const, "aria-describedby": `${field}-error` }
      : {};

  const text = (
    field: OfferField & keyof typeof OFFER_LIMITS,
    label: string,
    options: { required?: boolean; placeholder?: string } = {},
  ) => (
    <div className="space-y-2">
      <Label htmlFor={`offer-${field}`}>
        {label}
        {options.required ? " *" : ""}
      </Label>
      <Input
        id={`offer-${field}`}
        name={field}
        required={options.required}
        maxLength={OFFER_LIMITS[field]}
        placeholder={options.placeholder}
        defaultValue={values[field] as string}
        {...invalid(field)}
      />
      <FieldError field={field} message={fieldErrors[field]} />
    </div>
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
    <div className="space-y-2">
      <Label htmlFor={`offer-${field}`}>{label}</Label>
      <Input
        id={`offer-${field}`}
        name={field}
        inputMode={options.decimals ? "decimal" : "numeric"}
        maxLength={16}
        defaultValue={values[field]}
        aria-invalid={fieldErrors[field] ? true : undefined}
        aria-describedby={
          [fieldErrors[field] ? `${field}-error` : "", options.hint ? `${field}-hint` : ""]
            .filter(Boolean)
            .join(" ") || undefined
        }
      />
      {options.hint ? (
        <p id={`${field}-hint`} className="text-xs text-muted-foreground">
          {options.hint}
        </p>
      ) : null}
      <FieldError field={field} message={fieldErrors[field]} />
    </div>
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
        <div className="space-y-2">
          <Label htmlFor="offer-title">Titre *</Label>
          <Input
            id="offer-title"
            name="title"
            required
            maxLength={OFFER_LIMITS.title}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              if (!slugEdited) setSlug(slugify(event.target.value).slice(0, OFFER_LIMITS.slug));
            }}
            {...invalid("title")}
          />
          <FieldError field="title" message={fieldErrors.title} />
        </div>
        {text("reference", "Référence", { required: true, placeholder: "DED-XXX-000" })}
        <div className="space-y-2">
          <Label htmlFor="offer-slug">Slug (adresse de la page)</Label>
          <Input
            id="offer-slug"
            name="slug"
            maxLength={OFFER_LIMITS.slug}
            value={slug}
            onChange={(event) => {
              setSlug(event.target.value);
              setSlugEdited(true);
            }}
            aria-describedby={fieldErrors.slug ? "slug-error" : "slug-hint"}
            aria-invalid={fieldErrors.slug ? true : undefined}
          />
          <p id="slug-hint" className="text-xs text-muted-foreground">
            Généré à partir du titre et modifiable. Laissé vide, il est calculé à l'enregistrement ;
            s'il est déjà pris, un suffixe -1, -2… est ajouté.
          </p>
          <FieldError field="slug" message={fieldErrors.slug} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="offer-type">Type</Label>
          <NativeSelect id="offer-type" name="type" defaultValue={values.type} {...invalid("type")}>
            {OFFER_TYPES.map((type) => (
              <option key={type} value={type}>
                {OFFER_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
          <FieldError field="type" message={fieldErrors.type} />
        </div>
        {text("cpu", "Processeur (CPU)", { required: true })}
        {text("ram", "Mémoire RAM", { required: true })}
        {text("storage", "Stockage", { required: true })}
        {text("network", "Réseau")}
        <div className="space-y-2">
          <Label htmlFor="offer-price">Prix (€/mois) *</Label>
          <Input
            id="offer-price"
            name="price"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            max={OFFER_LIMITS.priceMax}
            required
            defaultValue={values.price}
            {...invalid("price")}
            aria-describedby={fieldErrors.price ? "price-error price-hint" : "price-hint"}
          />
          <p id="price-hint" className="text-xs text-muted-foreground">
            Hors taxes (HT) : le site affiche aussi le montant TTC.
          </p>
          <FieldError field="price" message={fieldErrors.price} />
        </div>
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

      <div className="space-y-2">
        <Label htmlFor="offer-description">Description (markdown)</Label>
        <Textarea
          id="offer-description"
          name="description"
          rows={3}
          maxLength={OFFER_LIMITS.description}
          defaultValue={values.description}
          {...invalid("description")}
        />
        <FieldError field="description" message={fieldErrors.description} />
      </div>

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
