// Searches as buyers type them into the listing's filters (issue 39): words, models and sizes,
// half-typed words (the listing's script asks as the typing pauses), with the filters beside them.
// Each address is canonical (the listing's own filterFormPath) and distinct, so that an uncached
// run asks each once and no memo keyed by the query answers it.
import { filterFormPath } from "../../app/lib/offer-filters";

/** What buyers type in `Rechercher`: 56 terms, the empty one included (filters alone). */
export const SEARCH_TERMS = `|epyc|xeon|ryzen|intel|amd|ddr5|ddr4|nvme|ssd|hdd|gpu|64 go|128 go|256|
  32 go|1 gbps|10 gbps|raid|stockage|sauvegarde|backup|e-2388g|epyc 7443|xeon silver|xeon gold|
  ryzen 9|7950x|2x|to|pme|loa|performance|start|pro|entreprise|web|virtualisation|gaming|paris|
  roubaix|strasbourg|ecc|ipmi|dual|16 cœurs|serveur|ep|epy|xeo|ryz|stoc|nvm|dd|perf|virtu`
  .split("|")
  .map((term) => term.trim());

/** The filters chosen beside a term: type, budget, one more criterion, order. */
const TYPES = ["", "dedicated", "loa"];
const BUDGETS = [
  [],
  [["max", "100"]],
  [["max", "200"]],
  [["max", "300"]],
  [["max", "500"]],
  [
    ["min", "100"],
    ["max", "400"],
  ],
  [["min", "300"]],
];
const CRITERIA = [[], [["engagement", "no"]], [["ram_min", "64"]], [["cores_min", "16"]]];
const SORTS = ["", "price_asc", "price_desc"];

/** A seeded shuffle (mulberry32): the same order on every run. */
function shuffled<T>(list: T[], seed = 39): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Every term with every combination of filters: about 12,000 distinct listing addresses. */
export function buyerSearches(): string[] {
  const paths = new Set<string>();
  for (const q of SEARCH_TERMS)
    for (const type of TYPES)
      for (const budget of BUDGETS)
        for (const criterion of CRITERIA)
          for (const sort of SORTS) {
            const fields = new URLSearchParams([["q", q], ["type", type], ...budget, ...criterion]);
            fields.set("sort", sort);
            paths.add(filterFormPath(fields));
          }
  return shuffled([...paths]);
}

/**
 * A cursor over `paths` that gives each one once; `wrapped` tells whether a run asked for more
 * than there are (then some were asked twice, and the figure is not what it claims).
 */
export function onceEach(paths: string[]) {
  let next = 0;
  return {
    next: () => paths[next++ % paths.length],
    get asked() {
      return next;
    },
    get wrapped() {
      return next > paths.length;
    },
  };
}
