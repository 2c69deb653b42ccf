// Search as French buyers type (issue 42): every word of the query must match a document, in
// any order; accents, case, ligatures, punctuation inside names and plurals do not matter; a word
// matches a word it begins; a word of five letters or more matches a word one edit away; and a
// table of synonyms widens a word to its equivalents. Pure: the catalogue index builds one per
// catalogue version (catalogue-index.ts) and asks it per query.

/** A document's text, by field, with the weight a match in that field counts for. */
export type SearchDocument = readonly { text: string; weight: number }[];

/** Groups of equivalent phrases, folded and cut into words (synonymGroups builds it). */
export type Synonyms = ReadonlyMap<string, readonly (readonly string[])[]>;

export type TextIndex = {
  /** Every word of the documents, sorted: prefixes are a range of it. */
  vocabulary: readonly string[];
  /** Word → document → the highest weight of a field holding it. */
  postings: ReadonlyMap<string, ReadonlyMap<number, number>>;
  size: number;
};

const FUZZY_MIN_LENGTH = 5;
/** The longest synonym phrase looked for in a query, in words. */
const MAX_PHRASE_WORDS = 8;
const QUALITY = { exact: 1, synonym: 0.9, prefix: 0.8, fuzzy: 0.6 } as const;

/** Lower case, without accents, ligatures opened (œ → oe): the form both sides are compared in. */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/ß/g, "ss");
}

/** The singular the plural is compared by: `serveurs` → `serveur`, `réseaux` → `reseau`. */
function singular(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith("eaux") || word.endsWith("eux")) return word.slice(0, -1);
  if (word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The words of a text, folded and singular; punctuation inside names separates (`DED-RYZ`). */
export function words(text: string): string[] {
  return foldText(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singular);
}

/** A number glued to its unit (`128gb`, `10gbps`), apart; not a model's letter (`7950x`). */
function parts(word: string): string[] {
  const split = word.match(/^(\d+)([a-z]{2,})$/);
  return split ? [split[1], singular(split[2])] : [];
}

export function buildTextIndex(documents: readonly SearchDocument[]): TextIndex {
  const postings = new Map<string, Map<number, number>>();
  const add = (word: string, doc: number, weight: number) => {
    let docs = postings.get(word);
    if (!docs) postings.set(word, (docs = new Map()));
    if ((docs.get(doc) ?? 0) < weight) docs.set(doc, weight);
  };
  documents.forEach((fields, doc) => {
    for (const { text, weight } of fields) {
      for (const word of words(text)) {
        add(word, doc, weight);
        for (const part of parts(word)) add(part, doc, weight);
      }
    }
  });
  return { vocabulary: [...postings.keys()].sort(), postings, size: documents.length };
}

/**
 * The synonyms table as the search reads it: each phrase of a group leads to every phrase of its
 * group (itself included), each phrase as its words.
 */
export function synonymGroups(groups: readonly (readonly string[])[]): Synonyms {
  const table = new Map<string, string[][]>();
  for (const group of groups) {
    const phrases = group.map(words).filter((phrase) => phrase.length > 0);
    for (const phrase of phrases) {
      const key = phrase.join(" ");
      const known = table.get(key) ?? [];
      for (const other of phrases) {
        if (!known.some((k) => k.join(" ") === other.join(" "))) known.push(other);
      }
      table.set(key, known);
    }
  }
  return table;
}

/** Whether a and b are at most one edit apart (insert, delete, change or swap of two letters). */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (i === a.length) return true;
    const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    return swapped || a.slice(i + 1) === b.slice(i + 1);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Edits between a and b (a swap of two letters is one), stopping past `max` (the suggestion's). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], before[j - 2] + 1);
      }
      best = Math.min(best, current[j]);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** The first index of `vocabulary` not before `word` (binary search). */
function lowerBound(vocabulary: readonly string[], word: string): number {
  let lo = 0;
  let hi = vocabulary.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (vocabulary[mid] < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Scores = Map<number, number>;

function merge(into: Scores, from: ReadonlyMap<number, number> | undefined, quality: number) {
  if (!from) return;
  for (const [doc, weight] of from) {
    const score = weight * quality;
    if ((into.get(doc) ?? 0) < score) into.set(doc, score);
  }
}

/** The documents holding `word` itself, a word it begins or, long enough, a word one edit away. */
function wordMatches(index: TextIndex, word: string, exactOnly = false): Scores {
  const found: Scores = new Map();
  merge(found, index.postings.get(word), QUALITY.exact);
  if (exactOnly) return found;
  // One letter is a prefix of too much: it counts whole only.
  if (word.length >= 2) {
    for (let i = lowerBound(index.vocabulary, word); i < index.vocabulary.length; i++) {
      const candidate = index.vocabulary[i];
      if (!candidate.startsWith(word)) break;
      if (candidate !== word) merge(found, index.postings.get(candidate), QUALITY.prefix);
    }
  }
  if (word.length >= FUZZY_MIN_LENGTH && /^[a-z]+$/.test(word)) {
    for (const candidate of index.vocabulary) {
      if (candidate !== word && withinOneEdit(word, candidate)) {
        merge(found, index.postings.get(candidate), QUALITY.fuzzy);
      }
    }
  }
  return found;
}

/** The documents holding every word of `phrase`, each scored by its weakest word. */
function phraseMatches(index: TextIndex, phrase: readonly string[], quality: number): Scores {
  let result: Scores | undefined;
  for (const word of phrase) {
    const found = wordMatches(index, word);
    if (!result) result = found;
    else {
      const next: Scores = new Map();
      for (const [doc, score] of result) {
        const other = found.get(doc);
        if (other !== undefined) next.set(doc, Math.min(score, other));
      }
      result = next;
    }
  }
  const scored: Scores = new Map();
  merge(scored, result, quality);
  return scored;
}

/** What one word of the query finds: itself, its synonyms, its parts (`128go` → `128` `go`). */
function queryWordMatches(index: TextIndex, word: string, synonyms: Synonyms): Scores {
  const found = wordMatches(index, word);
  for (const phrase of synonyms.get(word) ?? []) {
    if (phrase.length === 1 && phrase[0] === word) continue;
    merge(found, phraseMatches(index, phrase, QUALITY.synonym), 1);
  }
  const glued = word.match(/^(\d+)([a-z]+)$/);
  if (glued) {
    const unit = singular(glued[2]);
    const asUnit = queryWordMatches(index, unit, synonyms);
    const number = wordMatches(index, glued[1], true);
    for (const [doc, score] of number) {
      const other = asUnit.get(doc);
      if (other !== undefined && (found.get(doc) ?? 0) < Math.min(score, other)) {
        found.set(doc, Math.min(score, other));
      }
    }
  }
  return found;
}

/** Synonym phrases of several words (`serveur dédié`) found in the query, longest first. */
function queryTerms(queryWords: readonly string[], synonyms: Synonyms): string[] {
  const terms: string[] = [];
  for (let i = 0; i < queryWords.length;) {
    let taken = 1;
    for (let n = Math.min(MAX_PHRASE_WORDS, queryWords.length - i); n > 1; n--) {
      if (synonyms.has(queryWords.slice(i, i + n).join(" "))) {
        taken = n;
        break;
      }
    }
    terms.push(queryWords.slice(i, i + taken).join(" "));
    i += taken;
  }
  return terms;
}

export type TextMatch = { doc: number; score: number };

/**
 * The documents matching every word of `query`, with their score (the sum of each word's best
 * match: field weight × match quality), in document order; undefined when the query has no word.
 */
export function searchIndex(
  index: TextIndex,
  query: string,
  synonyms: Synonyms = new Map(),
): TextMatch[] | undefined {
  const queryWords = words(query);
  if (queryWords.length === 0) return undefined;
  let result: Scores | undefined;
  for (const term of queryTerms(queryWords, synonyms)) {
    const found = term.includes(" ")
      ? termMatches(index, term, synonyms)
      : queryWordMatches(index, term, synonyms);
    if (!result) result = found;
    else {
      const next: Scores = new Map();
      for (const [doc, score] of result) {
        const other = found.get(doc);
        if (other !== undefined) next.set(doc, score + other);
      }
      result = next;
    }
    if (result.size === 0) return [];
  }
  return [...(result ?? new Map<number, number>())]
    .map(([doc, score]) => ({ doc, score }))
    .sort((a, b) => a.doc - b.doc);
}

/** A phrase of the synonyms table typed whole: itself word by word, or any of its equivalents. */
function termMatches(index: TextIndex, term: string, synonyms: Synonyms): Scores {
  const found: Scores = new Map();
  for (const phrase of synonyms.get(term) ?? []) {
    const own = phrase.join(" ") === term;
    merge(found, phraseMatches(index, phrase, own ? QUALITY.exact : QUALITY.synonym), 1);
  }
  return found;
}

/**
 * `Vouliez-vous dire …`: the query with each word that finds nothing replaced by the catalogue's
 * closest word (two edits at most, the most frequent first), when that query finds something.
 */
export function suggestQuery(
  index: TextIndex,
  query: string,
  synonyms: Synonyms = new Map(),
): string | undefined {
  const queryWords = words(query);
  let changed = false;
  const corrected = queryWords.map((word) => {
    if (queryWordMatches(index, word, synonyms).size > 0 || word.length < 3) return word;
    const max = word.length >= 6 ? 2 : 1;
    let best: { word: string; distance: number; docs: number } | undefined;
    for (const candidate of index.vocabulary) {
      const d = distance(word, candidate, max);
      if (d > max) continue;
      const docs = index.postings.get(candidate)?.size ?? 0;
      if (!best || d < best.distance || (d === best.distance && docs > best.docs)) {
        best = { word: candidate, distance: d, docs };
      }
    }
    if (!best) return word;
    changed = true;
    return best.word;
  });
  if (!changed) return undefined;
  const suggestion = corrected.join(" ");
  return (searchIndex(index, suggestion, synonyms)?.length ?? 0) > 0 ? suggestion : undefined;
}
