import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../app/platform/db.server";
import { createPostgresDatabase } from "./database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (dumpDataDir tarball) each test file starts from. */
    pgliteImage: string;
    /** TEST_DB=postgres: a migrated, empty database each test file's database is a copy of. */
    postgresTemplate: string;
  }
}

/**
 * Vitest global setup: creates and migrates one database and keeps it, so that each integration
 * file starts from a copy instead of running every migration again (and, embedded, initdb). On
 * PGlite, an image of the data directory that each file loads; on PostgreSQL (TEST_DB=postgres),
 * a database that each file's `create database … template` copies, dropped at the end.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === "postgres") {
    project.provide("pgliteImage", "");
    if (!process.env.TEST_DATABASE_URL) {
      project.provide("postgresTemplate", "");
      return;
    }
    const template = await createPostgresDatabase("test_template");
    const handle = await openPostgres(template.url);
    try {
      await handle.withStartupLock((db) => handle.migrate(db));
    } finally {
      await handle.close(); // a template must have no connection while it is copied
    }
    project.provide("postgresTemplate", template.name);
    return () => template.drop();
  }
  project.provide("postgresTemplate", "");
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-image-"));
  const file = path.join(dir, "migrated.tar");
  const handle = await openPglite();
  await handle.migrate(handle.db);
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const image = await client.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  await handle.close();
  project.provide("pgliteImage", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
