import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import {
  openPglite,
  openPostgres,
  setCurrentDatabase,
  type Database,
  type DatabaseHandle,
} from "../../app/platform/db.server";
import {
  appState,
  datacenters,
  contactRequests,
  offers,
  rateLimits,
  sessions,
  users,
  webhookEndpoints,
  auditJournal,
} from "../../app/platform/schema.server";

/** The PostgreSQL server the tests create their databases on (never a database of its own). */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

export const testDatabaseKind = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

let reachable: Promise<boolean> | undefined;

/**
 * Whether the PostgreSQL server answers. In CI an unreachable server fails the run (the PostgreSQL
 * tests must never be skipped there); locally they are skipped with a warning.
 */
export function postgresAvailable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({
      connectionString: POSTGRES_ADMIN_URL,
      connectionTimeoutMillis: 3_000,
    });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      const where = POSTGRES_ADMIN_URL.replace(/\/\/[^@]*@/, "//...@");
      if (process.env.CI) {
        throw new Error(`PostgreSQL is not reachable at ${where} (CI requires it)`, {
          cause: error,
        });
      }
      console.warn(`WARNING: PostgreSQL not reachable at ${where}; PostgreSQL tests skipped.`);
      return false;
    }
  })();
  return reachable;
}

/** Runs fn with a client connected to url. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

/**
 * The one factory of PostgreSQL test databases: a new, empty database with a random name on the
 * server of TEST_DATABASE_URL (or a copy of `template`, a database nobody is connected to);
 * drop() removes it even while servers are still connected.
 */
export async function createPostgresDatabase(
  prefix = "test",
  template?: string,
): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(POSTGRES_ADMIN_URL, (c) =>
    c.query(`create database ${name}${template ? ` template ${template}` : ""}`),
  );
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      await withClient(POSTGRES_ADMIN_URL, (c) =>
        c.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

export type OpenTestDatabase = DatabaseHandle & {
  dispose(): Promise<void>;
  databaseUrl?: string;
};

/**
 * A fresh, migrated database: in-memory PGlite by default, or a new database on the PostgreSQL
 * server of TEST_DATABASE_URL when TEST_DB=postgres. It becomes the process's current database, so
 * server modules under test use it. A migrated copy made once per run
 * (tests/support/pglite-image.setup.ts) spares each file the migrations: `from.image` for the
 * in-memory database, `from.template` (a migrated database's name) on PostgreSQL; the migrations
 * still run, and find nothing left to apply.
 */
export async function openTestDatabase(
  from: { image?: Blob; template?: string } = {},
): Promise<OpenTestDatabase> {
  let handle: DatabaseHandle;
  let created: TestDatabase | undefined;
  if (testDatabaseKind === "postgres") {
    if (!process.env.TEST_DATABASE_URL) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    created = await createPostgresDatabase("test", from.template);
    handle = await openPostgres(created.url);
  } else {
    handle = await openPglite(undefined, 0, from.image);
  }
  await handle.withStartupLock((db) => handle.migrate(db));
  setCurrentDatabase(handle);
  return {
    ...handle,
    databaseUrl: created?.url,
    async dispose() {
      setCurrentDatabase(undefined);
      await handle.close();
      await created?.drop();
    },
  };
}

/** Empties every table a test writes (contact data goes with its requests). */
export async function truncateAll(database: Database) {
  await database.execute(
    sql`truncate ${contactRequests}, ${offers}, ${datacenters}, ${sessions}, ${users}, ${rateLimits}, ${appState}, ${webhookEndpoints}, ${auditJournal} restart identity cascade`,
  );
}

export type TwoRoleDatabase = TestDatabase & {
  /** The tables' owner (MIGRATION_DATABASE_URL); `url` is the server's role (DATABASE_URL). */
  migrationUrl: string;
  /** The test server's superuser, in this database. */
  superuserUrl: string;
  roles: { owner: string; server: string };
};

/**
 * A new database owned by a new owner role, and a new server role with no right in it yet: the
 * production set-up of docs/production.md ("Deux rôles"). drop() removes the database and both
 * roles.
 */
export async function createTwoRoleDatabase(prefix = "roles"): Promise<TwoRoleDatabase> {
  const suffix = randomBytes(5).toString("hex");
  const name = `${prefix}_${suffix}`;
  const roles = { owner: `${prefix}_owner_${suffix}`, server: `${prefix}_server_${suffix}` };
  const passwords = {
    owner: randomBytes(12).toString("hex"),
    server: randomBytes(12).toString("hex"),
  };
  await withClient(POSTGRES_ADMIN_URL, async (c) => {
    await c.query(`create role ${roles.owner} login password '${passwords.owner}'`);
    await c.query(`create role ${roles.server} login password '${passwords.server}'`);
    await c.query(`create database ${name} owner ${roles.owner}`);
  });
  const urlFor = (role?: "owner" | "server") => {
    const url = new URL(POSTGRES_ADMIN_URL);
    if (role) {
      url.username = roles[role];
      url.password = passwords[role];
    }
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    name,
    url: urlFor("server"),
    migrationUrl: urlFor("owner"),
    superuserUrl: urlFor(),
    roles,
    async drop() {
      await withClient(POSTGRES_ADMIN_URL, async (c) => {
        await c.query(`drop database if exists ${name} with (force)`);
        await c.query(`drop role if exists ${roles.server}`);
        await c.query(`drop role if exists ${roles.owner}`);
      });
    },
  };
}
