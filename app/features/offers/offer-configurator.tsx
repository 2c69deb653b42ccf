import { Button } from "~/components/ui/button";
import * as dom from "~/lib/dom-hooks";
import { monthlySupplementLabel, setupSupplementLabel } from "~/lib/money";
import { optionParam, type OptionGroup, type Selection } from "~/lib/offer-options";

function Supplements({ monthly, setup }: { monthly: number; setup: number }) {
  if (monthly === 0 && setup === 0) return <span className="text-muted-foreground">Inclus</span>;
  return (
    <span className="text-muted-foreground">
      {monthly ? monthlySupplementLabel(monthly) : null}
      {monthly && setup ? ", " : null}
      {setup ? setupSupplementLabel(setup) : null}
    </span>
  );
}

/**
 * The offer page's `Configurer` form (issue 21): a GET form to the page itself, so that the
 * configuration is in the address and the price card is server-rendered. With JavaScript,
 * app/client/offer-configure.ts swaps the price card in as the visitor picks.
 */
export function OfferConfigurator({
  action,
  groups,
  selection,
  children,
}: {
  action: string;
  groups: readonly OptionGroup[];
  selection: Selection;
  /** More fields of the same form (the lease duration). */
  children?: React.ReactNode;
}) {
  return (
    <form
      method="get"
      action={action}
      aria-labelledby="configurer"
      className="space-y-5"
      {...dom.hook(dom.OFFER_CONFIGURE)}
    >
      <h2 id="configurer" className="text-xl font-semibold">
        Configurer
      </h2>
      {groups.map((group, index) => (
        <fieldset key={group.label} className="space-y-2">
          <legend className="font-medium">{group.label}</legend>
          {group.kind === "choice" ? (
            group.choices.map((choice, choiceIndex) => (
              <label
                key={choice.label}
                className="flex cursor-pointer flex-wrap items-center gap-x-2 rounded-md border p-3 text-sm has-[:checked]:border-primary"
              >
                <input
                  type="radio"
                  name={optionParam(index)}
                  value={choiceIndex}
                  defaultChecked={selection[index] === choiceIndex}
                  className="accent-[var(--color-primary)]"
                />
                <span className="font-medium">{choice.label}</span>
                <Supplements monthly={choice.monthly} setup={choice.setup} />
              </label>
            ))
          ) : (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <input
                type="number"
                id={`option-${index}`}
                name={optionParam(index)}
                min={group.min}
                max={group.max}
                step={1}
                defaultValue={selection[index]}
                aria-label={`${group.label} (${group.min} à ${group.max})`}
                className="h-10 w-24 rounded-md border bg-background px-3"
              />
              <span>
                par unité : <Supplements monthly={group.monthly} setup={group.setup} />
              </span>
            </div>
          )}
        </fieldset>
      ))}
      {children}
      <Button type="submit" variant="outline" {...dom.hook(dom.NOJS_ONLY)}>
        Mettre à jour le prix
      </Button>
    </form>
  );
}
