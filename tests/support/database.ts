import { randomBytes } from "node:crypto";
import pg from "pg";
import {
  openPglite,
  openPostgres,
  setCurrentDatabase,
  type DatabaseHandle,
} from "../../app/server/db.server";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * created on the PostgreSQL server of TEST_DATABASE_URL when TEST_DB=postgres. It becomes the
 * process's current database, so server modules under test use it.
 */
export async function openTestDatabase(): Promise<
  DatabaseHandle & { dispose(): Promise<void>; databaseUrl?: string }
> {
  let handle: DatabaseHandle;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.TEST_DB === "postgres") {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    const name = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    handle = await openPostgres(databaseUrl);
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  } else {
    handle = await openPglite();
  }
  await handle.withStartupLock((db) => handle.migrate(db));
  setCurrentDatabase(handle);
  return {
    ...handle,
    databaseUrl,
    async dispose() {
      setCurrentDatabase(undefined);
      await handle.close();
      await dropDatabase();
    },
  };
}

export const testDatabaseKind = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
