import { asc, eq } from "drizzle-orm";
import { words } from "~/lib/text-search";
import { bumpCatalogueVersion } from "./catalogue.server";
import { db, type Database } from "~/platform/db.server";
import { searchSynonyms } from "~/platform/schema.server";

// The search's synonyms (issue 42): groups of phrases a buyer may type for one another, edited by
// the catalogue team. A change bumps the catalogue version: the index and the cached pages follow.

export type SynonymGroup = { id: number; phrases: string[] };

export async function listSynonymGroups(database: Database = db()): Promise<SynonymGroup[]> {
  return database
    .select({ id: searchSynonyms.id, phrases: searchSynonyms.phrases })
    .from(searchSynonyms)
    .orderBy(asc(searchSynonyms.id));
}

/** Phrases compared as the search compares them: `Gbit/s` and `gbit s` are one. */
const searchForm = (phrase: string) => words(phrase).join(" ");

export async function addSynonymGroup(
  phrases: readonly string[],
  database: Database = db(),
): Promise<{ kind: "added"; id: number } | { kind: "tooFew" } | { kind: "duplicate" }> {
  const distinct = [...new Map(phrases.map((p) => [searchForm(p), p.trim()])).entries()]
    .filter(([form]) => form !== "")
    .map(([, phrase]) => phrase);
  if (distinct.length < 2) return { kind: "tooFew" };
  return database.transaction(async (tx) => {
    const known = await listSynonymGroups(tx);
    const forms = new Set(distinct.map(searchForm));
    const same = known.some(
      (group) =>
        group.phrases.length === forms.size && group.phrases.every((p) => forms.has(searchForm(p))),
    );
    if (same) return { kind: "duplicate" as const };
    const [row] = await tx
      .insert(searchSynonyms)
      .values({ phrases: distinct })
      .returning({ id: searchSynonyms.id });
    await bumpCatalogueVersion(tx);
    return { kind: "added" as const, id: row.id };
  });
}

export async function removeSynonymGroup(
  id: number,
  database: Database = db(),
): Promise<{ kind: "removed"; phrases: string[] } | { kind: "missing" }> {
  return database.transaction(async (tx) => {
    const rows = await tx
      .delete(searchSynonyms)
      .where(eq(searchSynonyms.id, id))
      .returning({ phrases: searchSynonyms.phrases });
    if (!rows.length) return { kind: "missing" as const };
    await bumpCatalogueVersion(tx);
    return { kind: "removed" as const, phrases: rows[0].phrases };
  });
}
