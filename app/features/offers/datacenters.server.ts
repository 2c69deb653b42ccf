import { asc, count, eq } from "drizzle-orm";
import { slugify } from "~/lib/slug";
import { bumpCatalogueVersion } from "./catalogue.server";
import { db, type Database } from "~/platform/db.server";
import { datacenters, offers } from "~/platform/schema.server";

// The datacenters the administrator keeps (issue 21). The code is the listing's `location`
// value, made once from the name.

export type DatacenterRow = { code: string; name: string; offerCount: number };

/** Every datacenter by name, with how many offers name it. */
export async function listDatacenters(database: Database = db()): Promise<DatacenterRow[]> {
  return database
    .select({ code: datacenters.code, name: datacenters.name, offerCount: count(offers.id) })
    .from(datacenters)
    .leftJoin(offers, eq(offers.datacenter, datacenters.code))
    .groupBy(datacenters.code, datacenters.name)
    .orderBy(asc(datacenters.name));
}

export async function addDatacenter(
  name: string,
  database: Database = db(),
): Promise<{ kind: "added"; code: string } | { kind: "duplicate" } | { kind: "invalid" }> {
  const code = slugify(name).slice(0, 40).replace(/-+$/, "");
  if (!code) return { kind: "invalid" };
  return database.transaction(async (tx) => {
    const rows = await tx
      .insert(datacenters)
      .values({ code, name })
      .onConflictDoNothing()
      .returning({ code: datacenters.code });
    if (!rows.length) return { kind: "duplicate" as const };
    // The listing's filter offers it at once (cached pages are keyed by the catalogue version).
    await bumpCatalogueVersion(tx);
    return { kind: "added" as const, code };
  });
}

/** Removes a datacenter; its offers keep no datacenter (on delete set null). */
export async function removeDatacenter(
  code: string,
  database: Database = db(),
): Promise<{ kind: "removed" | "missing" }> {
  return database.transaction(async (tx) => {
    const rows = await tx
      .delete(datacenters)
      .where(eq(datacenters.code, code))
      .returning({ code: datacenters.code });
    if (!rows.length) return { kind: "missing" as const };
    await bumpCatalogueVersion(tx);
    return { kind: "removed" as const };
  });
}
