import { randomBytes } from "node:crypto";
import { getTableName, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
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
  signedDocuments,
  replyTemplates,
  savedSearches,
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
    handle = await openPglite(undefined, { image: from.image });
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

/** The tables a test writes; the TRUNCATE of truncateAll's meaning also empties their referrers. */
const WRITTEN: PgTable[] = [
  contactRequests,
  offers,
  datacenters,
  sessions,
  users,
  rateLimits,
  appState,
  webhookEndpoints,
  auditJournal,
  signedDocuments,
  replyTemplates,
  savedSearches,
];

/**
 * The triggers a row-by-row emptying may meet, and what it does about each: the journal's
 * append-only guard and the signed documents' write-once guard let their retention purge's own
 * setting through, and the per-status counters
 * kept by contact_requests' triggers are emptied as its TRUNCATE trigger does.
 */
const KNOWN_TRIGGERS = [
  "audit_journal.audit_journal_append_only",
  "signed_documents.signed_documents_write_once",
  "contact_requests.contact_request_counts_sync",
  "contact_requests.contact_request_counts_reset",
];

const emptyingPlans = new WeakMap<Database, Promise<SQL | undefined>>();

/**
 * One statement with the effect of `truncate <WRITTEN> restart identity cascade`, read from
 * the catalog: the tables and every table referring to them (children first), their sequences
 * back to their start. `undefined` when the schema holds what it does not know (a cycle of
 * foreign keys, another trigger): truncateAll then truncates.
 */
async function emptyingPlan(database: Database): Promise<SQL | undefined> {
  const { rows } = await database.execute(sql`
    with recursive emptied(oid) as (
      select unnest(array[${sql.join(
        WRITTEN.map((table) => sql`${getTableName(table)}::regclass::oid`),
        sql`, `,
      )}])
      union
      select k.conrelid from pg_constraint k join emptied e on k.confrelid = e.oid where k.contype = 'f'
    )
    select
      (select json_agg(e.oid::regclass::text) from emptied e) as tables,
      (select json_agg(json_build_array(k.conrelid::regclass::text, k.confrelid::regclass::text))
        from pg_constraint k where k.contype = 'f' and k.conrelid in (select oid from emptied)) as refs,
      (select json_agg(json_build_array(d.objid::regclass::text, q.seqstart::text))
        from pg_depend d join pg_sequence q on q.seqrelid = d.objid
        where d.classid = 'pg_class'::regclass and d.refobjid in (select oid from emptied)
          and d.deptype in ('a', 'i')) as sequences,
      (select json_agg(t.tgrelid::regclass::text || '.' || t.tgname)
        from pg_trigger t where not t.tgisinternal and t.tgrelid in (select oid from emptied)) as triggers`);
  const row = rows[0] as {
    tables: string[];
    refs: [string, string][] | null;
    sequences: [string, string][] | null;
    triggers: string[] | null;
  };
  if ((row.triggers ?? []).some((trigger) => !KNOWN_TRIGGERS.includes(trigger))) return undefined;
  // Children first: a table is emptied once every table referring to it is.
  const ordered: string[] = [];
  let left = row.tables;
  while (left.length > 0) {
    const ready = left.filter(
      (table) => !(row.refs ?? []).some(([from, to]) => to === table && left.includes(from)),
    );
    if (ready.length === 0) return undefined;
    ordered.push(...ready);
    left = left.filter((table) => !ready.includes(table));
  }
  const statements = [
    // The retention purges' own ways past the guards of the journal and the signed documents, for
    // this statement only.
    `perform set_config('app.audit_retention', 'on', true);`,
    `perform set_config('app.signed_retention', 'on', true);`,
    ...ordered.map((table) => `delete from ${table};`),
    // What contact_requests' TRUNCATE trigger does (its row trigger left counters at zero).
    ...(row.triggers?.includes("contact_requests.contact_request_counts_reset")
      ? ["delete from contact_request_counts;"]
      : []),
    ...(row.sequences ?? []).map(([name, start]) => `perform setval('${name}', ${start}, false);`),
  ];
  return sql.raw(`do $$ begin ${statements.join(" ")} end $$`);
}

/**
 * Empties every table a test writes (contact data goes with its requests) and restarts their ids,
 * like `truncate … restart identity cascade`. On tables of a few rows, deleting them is about a
 * tenth of the CPU of TRUNCATE (which makes new files for every table and index: 40–60 ms on
 * PGlite, before each of some 300 tests).
 */
export async function truncateAll(database: Database) {
  let plan = emptyingPlans.get(database);
  if (!plan) {
    plan = emptyingPlan(database);
    emptyingPlans.set(database, plan);
  }
  const statement = await plan;
  await database.execute(
    statement ?? sql`truncate ${sql.join(WRITTEN, sql`, `)} restart identity cascade`,
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
