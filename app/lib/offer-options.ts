import {
  centsText,
  formatCents,
  monthlySupplementLabel,
  perMonth,
  setupSupplementLabel,
  toCents,
  ttcCents,
  type Pricing,
} from "./money";

// An offer's options with their prices (issue 21). The administrator types them one per line in
// the offer form; they are stored as JSON on the offer and read back into the same lines.
// No zod here: the offer page's script may import this module.

/** One choice of a group: its monthly and setup supplements HT, in cents. */
export type OptionChoice = { label: string; monthly: number; setup: number };

export type OptionGroup =
  | { kind: "choice"; label: string; choices: OptionChoice[] }
  /** A count (IPv4 supplémentaires 0–16): the supplements are per unit. */
  | { kind: "quantity"; label: string; min: number; max: number; monthly: number; setup: number };

export const OPTION_LIMITS = { groups: 12, choices: 12, label: 80, quantity: 1000 } as const;

const RANGE = /^(\d{1,4})\s*[-–]\s*(\d{1,4})$/;

/** '40' or '40,00' or '' (0) to cents; undefined when it is not an amount. */
function cents(text: string): number | undefined {
  const clean = text.replace(/[\s\u00a0\u202f€]/g, "").replace(",", ".");
  if (clean === "") return 0;
  if (!/^\d{1,7}(?:\.\d{1,2})?$/.test(clean)) return undefined;
  return toCents(clean);
}

const amountText = centsText;

/**
 * Reads the options as typed, one line each: `Groupe | Choix | mensuel HT | mise en service HT`,
 * or `Groupe | 0-16 | mensuel HT par unité | mise en service HT par unité` for a quantity. The
 * first choice of a group is the one included in the price (usually at 0). Empty lines are
 * skipped. Gives the groups, or the first line's French error.
 */
export function parseOptionLines(
  text: string,
): { ok: true; groups: OptionGroup[] } | { ok: false; message: string } {
  const groups: OptionGroup[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const at = `Options, ligne ${index + 1}`;
    const parts = line.split("|").map((p) => p.trim());
    if (parts.length < 2 || parts.length > 4 || !parts[0] || !parts[1]) {
      return {
        ok: false,
        message: `${at} : écrivez « Groupe | Choix | mensuel HT | mise en service HT ».`,
      };
    }
    const [group, choice, monthlyText = "", setupText = ""] = parts;
    if (group.length > OPTION_LIMITS.label || choice.length > OPTION_LIMITS.label) {
      return {
        ok: false,
        message: `${at} : ${OPTION_LIMITS.label} caractères au plus par libellé.`,
      };
    }
    const monthly = cents(monthlyText);
    const setup = cents(setupText);
    if (monthly === undefined || setup === undefined) {
      return { ok: false, message: `${at} : les montants sont des euros HT (ex. 40 ou 12,50).` };
    }
    const range = RANGE.exec(choice);
    const existing = groups.find((g) => g.label === group);
    if (range) {
      const [min, max] = [Number(range[1]), Number(range[2])];
      if (existing || min > max || max > OPTION_LIMITS.quantity) {
        return {
          ok: false,
          message: existing
            ? `${at} : le groupe « ${group} » est déjà défini.`
            : `${at} : la quantité va de 0 à ${OPTION_LIMITS.quantity}, le minimum d'abord.`,
        };
      }
      groups.push({ kind: "quantity", label: group, min, max, monthly, setup });
      continue;
    }
    if (existing && existing.kind !== "choice") {
      return { ok: false, message: `${at} : « ${group} » est une quantité.` };
    }
    const target: OptionGroup = existing ?? { kind: "choice", label: group, choices: [] };
    if (!existing) groups.push(target);
    if (target.kind === "choice") {
      if (target.choices.some((c) => c.label === choice)) {
        return { ok: false, message: `${at} : le choix « ${choice} » est en double.` };
      }
      if (target.choices.length >= OPTION_LIMITS.choices) {
        return { ok: false, message: `${at} : ${OPTION_LIMITS.choices} choix au plus par groupe.` };
      }
      target.choices.push({ label: choice, monthly, setup });
    }
  }
  if (groups.length > OPTION_LIMITS.groups) {
    return { ok: false, message: `Options : ${OPTION_LIMITS.groups} groupes au plus.` };
  }
  return { ok: true, groups };
}

/** The lines the administrator typed, back from the stored groups. */
export function optionLines(groups: readonly OptionGroup[] | null): string {
  if (!groups) return "";
  return groups
    .flatMap((g) =>
      g.kind === "quantity"
        ? [`${g.label} | ${g.min}-${g.max} | ${amountText(g.monthly)} | ${amountText(g.setup)}`]
        : g.choices.map(
            (c) => `${g.label} | ${c.label} | ${amountText(c.monthly)} | ${amountText(c.setup)}`,
          ),
    )
    .join("\n");
}

/** The URL parameter of group n: `o0`, `o1`… (a choice's index or a quantity). */
export const optionParam = (index: number) => `o${index}`;

/** What the visitor picked, one entry per group: a choice's index, or a quantity. */
export type Selection = number[];

/** The selection in a query (unknown or out-of-range values fall back to the default). */
export function readSelection(groups: readonly OptionGroup[], params: URLSearchParams): Selection {
  return groups.map((group, index) => {
    const text = params.get(optionParam(index));
    const value = text !== null && /^\d{1,4}$/.test(text) ? Number(text) : undefined;
    if (group.kind === "choice") {
      return value !== undefined && value < group.choices.length ? value : 0;
    }
    return value !== undefined && value >= group.min && value <= group.max ? value : group.min;
  });
}

/** The canonical query of a selection: defaults left out ('' when nothing is chosen). */
export function selectionParams(groups: readonly OptionGroup[], selection: Selection) {
  const params = new URLSearchParams();
  groups.forEach((group, index) => {
    const base = group.kind === "choice" ? 0 : group.min;
    if (selection[index] !== base) params.set(optionParam(index), String(selection[index]));
  });
  return params;
}

/** One configured line: the group, what was picked, and what it adds HT (cents). */
export type ConfiguredLine = { group: string; value: string; monthly: number; setup: number };

export type Configuration = {
  lines: ConfiguredLine[];
  /** Monthly total HT and setup total HT, base included, in cents. */
  monthly: number;
  setup: number;
};

/** The configured price: the base monthly price and setup fee plus each pick's supplements. */
export function configure(
  base: { price: string; setupFee: string | null },
  groups: readonly OptionGroup[],
  selection: Selection,
): Configuration {
  const lines = groups.map((group, index): ConfiguredLine => {
    if (group.kind === "choice") {
      const choice = group.choices[selection[index]] ?? group.choices[0];
      return { group: group.label, value: choice.label, ...pick(choice) };
    }
    const count = selection[index] ?? group.min;
    return {
      group: group.label,
      value: String(count),
      monthly: group.monthly * count,
      setup: group.setup * count,
    };
  });
  return {
    lines,
    monthly: toCents(base.price) + lines.reduce((sum, l) => sum + l.monthly, 0),
    setup:
      (base.setupFee === null ? 0 : toCents(base.setupFee)) +
      lines.reduce((s, l) => s + l.setup, 0),
  };
}

const pick = ({ monthly, setup }: OptionChoice) => ({ monthly, setup });

/** The contact form's field (and link parameter) that carries a configuration's query. */
export const CONFIGURATION_FIELD = "configuration";
/** The offer a posted configuration was chosen on: with another offer, the configuration is dropped. */
export const CONFIGURED_OFFER_FIELD = "configurationOffer";
export const CONFIGURATION_MAX = 300;

/** `/contact?offer=12&configuration=o0%3D1` (the configuration only when one is chosen). */
export function contactHref(offerId: number, configuration: string): string {
  const params = new URLSearchParams({ offer: String(offerId) });
  if (configuration) params.set(CONFIGURATION_FIELD, configuration);
  return `/contact?${params}`;
}

/**
 * What a contact request keeps of the configuration (issue 21): labels and amounts HT in cents
 * as they were when it was sent, and the query that chose them.
 */
export type ConfigurationSnapshot = Configuration & {
  query: string;
  /**
   * LOA simulated: months, purchase option and total cost HT (rent × months + option); since issue
   * 41, the financed amount HT (cents) and the scale's coefficient the rent was priced with, which
   * the financer's summary states (absent from older snapshots).
   */
  lease?: {
    months: number;
    option: number;
    total: number;
    financed?: number;
    coefficient?: string;
  } | null;
};

/**
 * One line per choice, then the totals: for the request page, its mail, CSV and exports (HT, what
 * the team quotes). Given the site's pricing (what a visitor reads: the contact form, the
 * acknowledgement), the totals follow PRICE_DISPLAY: TTC first with the HT beside it.
 */
export function configurationLines(snapshot: ConfigurationSnapshot, pricing?: Pricing): string[] {
  const supplement = (l: ConfiguredLine) =>
    [
      l.monthly ? monthlySupplementLabel(l.monthly) : "",
      l.setup ? setupSupplementLabel(l.setup) : "",
    ]
      .filter(Boolean)
      .join(", ");
  return [
    ...snapshot.lines.map(
      (l) => `${l.group} : ${l.value}${supplement(l) ? ` (${supplement(l)})` : ""}`,
    ),
    pricing?.display === "ttc"
      ? `Total : ${perMonth(`${formatCents(ttcCents(snapshot.monthly, pricing.vatRate))} TTC`)} (${perMonth(`${formatCents(snapshot.monthly)} HT`)}), mise en service ${formatCents(ttcCents(snapshot.setup, pricing.vatRate))} TTC`
      : `Total : ${perMonth(`${formatCents(snapshot.monthly)} HT`)}, mise en service ${formatCents(snapshot.setup)} HT`,
    ...(snapshot.lease
      ? [
          `Location : ${snapshot.lease.months} mois, option d'achat ${formatCents(snapshot.lease.option)} HT, coût total ${formatCents(snapshot.lease.total)} HT`,
        ]
      : []),
  ];
}
