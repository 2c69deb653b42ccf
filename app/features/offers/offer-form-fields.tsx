import { useState, type ReactElement, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import type { FieldErrors } from "~/lib/field-errors";
import { scalePrice, type LeaseScale } from "~/lib/offer-price";
import { centsText } from "~/lib/money";
import { scalePriceExplanation, typedLeaseSource } from "~/lib/offer-price";
import {
  OFFER_FIELD_NAMES,
  OFFER_FIELDS,
  OFFER_FORM_SECTIONS,
  OFFER_LIMITS,
  type OfferField,
  type OfferFieldSpec,
  type OfferFormSection,
  type OfferFormValues,
} from "~/lib/offer-fields";
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
  /** The options of `reference` fields (rows the administrator keeps, such as datacenters). */
  references?: Partial<Record<OfferField, { value: string; label: string }[]>>;
  /** The `Barème LOA` in force: a financed LOA offer's price is computed from it, not typed. */
  scale: LeaseScale;
};

/** The fields a financed LOA offer's price is computed from. */
const LEASE_FIELDS = ["type", "financedAmount", "leaseDurations", "loaMonths"] as const;
type LeaseFields = Record<(typeof LEASE_FIELDS)[number], string>;
const isLeaseField = (name: string): name is keyof LeaseFields =>
  (LEASE_FIELDS as readonly string[]).includes(name);

/**
 * A financed LOA offer's price as the save will write it (decision 038): the price and option
 * inputs show it, read-only, and a note says where it comes from. It follows the typing with
 * JavaScript; without, it is the page's values'.
 */
function useScalePrice(values: OfferFormValues, scale: LeaseScale) {
  const [typed, setTyped] = useState<LeaseFields>(
    () => Object.fromEntries(LEASE_FIELDS.map((f) => [f, values[f]])) as LeaseFields,
  );
  const source = typedLeaseSource(typed);
  const scaled = source.type === "loa" && source.financedAmount !== null;
  const quote = scaled ? scalePrice(source, scale) : null;
  return {
    scaled,
    price: quote ? centsText(quote.monthly) : "",
    option: quote ? centsText(quote.option) : "",
    note: scaled
      ? (scalePriceExplanation(source, scale) ??
        "Le Barème LOA ne prévoit aucune des durées proposées : l'offre n'a pas de prix.")
      : null,
    onChange: (target: EventTarget) => {
      const { name, value } = target as HTMLInputElement;
      if (isLeaseField(name)) setTyped((current) => ({ ...current, [name]: value }));
    },
  };
}

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
  references = {},
  scale,
}: OfferFormProps) {
  const lease = useScalePrice(values, scale);
  const [title, setTitle] = useState(values.title);
  // A new offer (or a copy) shows the slug its title gives until the administrator types one.
  const [slug, setSlug] = useState(
    values.slug || (mode === "create" ? slugify(values.title).slice(0, OFFER_LIMITS.slug) : ""),
  );
  const [slugEdited, setSlugEdited] = useState(mode === "edit" || values.slug !== "");

  // Every other field is drawn from its row in the field table (offer-fields.ts).
  const input = (field: OfferField) => {
    const spec = OFFER_FIELDS[field] as OfferFieldSpec;
    const value = values[field];
    switch (spec.kind) {
      case "boolean":
        return null;
      case "choice":
        return (
          <NativeSelect name={field} defaultValue={value as string}>
            {spec.values.map((v) => (
              <option key={v} value={v}>
                {spec.labels[v]}
              </option>
            ))}
          </NativeSelect>
        );
      case "reference":
        return (
          <NativeSelect name={field} defaultValue={value as string}>
            <option value="">—</option>
            {(references[field] ?? []).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        );
      case "price":
        return lease.scaled ? (
          <Input key="scaled" name={field} readOnly value={lease.price} />
        ) : (
          <Input
            key="typed"
            name={field}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            max={spec.max}
            required
            defaultValue={value as string}
          />
        );
      case "months":
        return (
          <Input
            name={field}
            maxLength={spec.max}
            placeholder={spec.placeholder}
            defaultValue={value as string}
          />
        );
      // Optional numbers (issue 13): typed as text with a numeric keyboard, so that '7,68' is accepted.
      case "integer":
      case "decimal":
        if (field === "loaPurchaseOption" && lease.scaled) {
          return <Input key="scaled" name={field} readOnly value={lease.option} />;
        }
        return (
          <Input
            key="typed"
            name={field}
            inputMode={spec.kind === "decimal" ? "decimal" : "numeric"}
            maxLength={16}
            defaultValue={value as string}
          />
        );
      case "options":
        return (
          <Textarea
            name={field}
            rows={6}
            maxLength={spec.max}
            className="font-mono text-sm"
            defaultValue={value as string}
          />
        );
      case "text":
        return spec.multiline ? (
          <Textarea name={field} rows={3} maxLength={spec.max} defaultValue={value as string} />
        ) : (
          <Input
            name={field}
            required={spec.required}
            maxLength={spec.max}
            placeholder={spec.placeholder}
            defaultValue={value as string}
          />
        );
    }
  };

  const block = (field: OfferField) => {
    const spec = OFFER_FIELDS[field] as OfferFieldSpec;
    const required =
      (spec.kind === "text" && spec.required) || (spec.kind === "price" && !lease.scaled);
    const label = `${spec.label}${required ? " *" : ""}`;
    const block = { field, label, error: fieldErrors[field], hint: spec.hint };
    if (field === "title" || field === "slug") {
      // The slug follows the title while creating, until the administrator edits it.
      return (
        <OfferFieldBlock key={field} {...block}>
          <Input
            name={field}
            required={field === "title"}
            maxLength={OFFER_LIMITS[field]}
            value={field === "title" ? title : slug}
            onChange={(event) => {
              if (field === "slug") {
                setSlug(event.target.value);
                setSlugEdited(true);
                return;
              }
              setTitle(event.target.value);
              if (!slugEdited) setSlug(slugify(event.target.value).slice(0, OFFER_LIMITS.slug));
            }}
          />
        </OfferFieldBlock>
      );
    }
    return (
      <OfferFieldBlock key={field} {...block}>
        {input(field)!}
      </OfferFieldBlock>
    );
  };

  const inSection = (section: OfferFormSection) =>
    OFFER_FIELD_NAMES.filter((field) => OFFER_FIELDS[field].section === section);

  return (
    <Form
      method="post"
      action={action}
      className="space-y-6"
      aria-label={mode === "create" ? "Créer une nouvelle offre" : "Modifier l'offre"}
      onChange={(event) => lease.onChange(event.target)}
    >
      <input type="hidden" name="intent" value={mode === "create" ? "create" : "update"} />
      {offerId !== undefined ? <input type="hidden" name="id" value={offerId} /> : null}

      <div className="grid gap-5 md:grid-cols-2">{inSection("main").map(block)}</div>

      {(["delivery", "numbers", "loa", "options"] as const).map((section) =>
        inSection(section).length ? (
          <fieldset key={section} className="space-y-3">
            <legend className="text-sm font-medium">{OFFER_FORM_SECTIONS[section]}</legend>
            {section === "loa" && lease.note ? (
              <p id="offer-lease-price" className="text-sm font-medium" aria-live="polite">
                {lease.note}
              </p>
            ) : null}
            {section === "numbers" ? (
              <p className="text-xs text-muted-foreground">
                Elles servent aux filtres « RAM min » et « Cœurs min » et à la comparaison ; une
                offre sans valeur est écartée quand le filtre est utilisé.
              </p>
            ) : null}
            <div
              className={
                section === "numbers"
                  ? "grid gap-5 sm:grid-cols-2 lg:grid-cols-4"
                  : "grid gap-5 md:grid-cols-2"
              }
            >
              {inSection(section).map(block)}
            </div>
          </fieldset>
        ) : null,
      )}

      {inSection("text").map(block)}

      <div className="grid gap-5 md:grid-cols-2">{inSection("seo").map(block)}</div>

      <fieldset className="flex flex-wrap gap-6">
        <legend className="sr-only">Options</legend>
        {inSection("flags").map((field) => (
          <div key={field} className="flex items-center gap-2">
            <Checkbox
              id={`offer-${field}`}
              name={field}
              defaultChecked={values[field] as boolean}
            />
            <Label htmlFor={`offer-${field}`}>{OFFER_FIELDS[field].label}</Label>
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
