import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { openTestDatabase, truncateAll, type OpenTestDatabase } from "./database";
import { lateBound } from "./late-bound";

// Apart from database.ts: importing vitest outside its runner throws, and the bench uses database.ts.

/**
 * The database of one integration file: opened and migrated before its first test, emptied before
 * each test with `truncate: true` (truncateAll), closed and dropped after the last. Use the
 * returned object in tests and hooks only: it is filled in by beforeAll.
 */
export function useTestDatabase(options: { truncate?: boolean } = {}): OpenTestDatabase {
  let current: OpenTestDatabase | undefined;
  beforeAll(async () => {
    // The migrated copies of tests/support/pglite-image.setup.ts.
    const image = inject("pgliteImage");
    const template = inject("postgresTemplate");
    current = await openTestDatabase({
      image: image ? new Blob([readFileSync(image)]) : undefined,
      template: template || undefined,
    });
  });
  const database = lateBound(
    () => current,
    "useTestDatabase(): the database is open in tests and hooks only",
  );
  if (options.truncate) beforeEach(() => truncateAll(database.db));
  afterAll(async () => {
    await current?.dispose();
    current = undefined;
  });
  return database;
}

/**
 * Makes `dataDir` an embedded data directory (DATA_DIR) that a server already started and migrated:
 * a copy of the run's migrated image (tests/support/pglite-image.setup.ts), written by PGlite itself.
 * For tests that need such a directory, not a never-started one: it spares initdb and every
 * migration (about 5 s of CPU). PGlite runs only.
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  const image = inject("pgliteImage");
  if (!image) throw new Error("migratedDataDir(): no migrated image (PGlite runs only)");
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(path.join(dataDir, "pgdata"), {
    extensions: { pg_trgm },
    loadDataDir: new Blob([readFileSync(image)]),
  });
  await client.close();
}
