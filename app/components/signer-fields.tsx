import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

// Who signs online (a quote's `Bon pour accord`, a delivery report): the two fields a simple
// electronic signature (eIDAS) records beside the date, the address and the browser.

const SIGNER_FIELDS = [
  { name: "name", label: "Nom *", autoComplete: "name" },
  { name: "role", label: "Fonction *", autoComplete: "organization-title" },
] as const;

export type SignerField = (typeof SIGNER_FIELDS)[number]["name"];

/** The signer's name and role, ids `${idPrefix}-name` and `${idPrefix}-role`. */
export function SignerFields({
  idPrefix,
  limits,
  errors,
  values,
}: {
  idPrefix: string;
  limits: Record<SignerField, number>;
  errors: Record<string, string | undefined>;
  values?: Record<string, string>;
}) {
  return SIGNER_FIELDS.map(({ name, label, autoComplete }) => (
    <Field key={name} id={`${idPrefix}-${name}`} label={label} error={errors[name]}>
      <Input
        name={name}
        required
        autoComplete={autoComplete}
        maxLength={limits[name]}
        defaultValue={values?.[name]}
      />
    </Field>
  ));
}
