import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { acquireDataDirLock, DataDirBusyError } from "./data-dir-lock.server";
import {
  checkOwnership,
  currentRole,
  grantServerRole,
  journalIsUnprotected,
  pendingMigrationCount,
  PendingMigrationsError,
  retentionFloors,
  setRetentionFloors,
} from "./db-roles.server";
import { env } from "./env.server";
import { log } from "./log.server";
import * as schema from "./schema.server";

/** What `execute` answers on both drivers: PGlite's `Results` and node-postgres' `QueryResult`. */
type RowsResult<Row> = { rows: Row[] };
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this["row"]>;
}

/**
 * A database or a transaction, on either driver: what every data function takes. The PGlite and
 * node-postgres Drizzle instances and their transactions all are one, without a cast.
 */
export type Database = PgDatabase<RowsResultHKT, typeof schema>;

/** The row a select of `columns` gives, every value nullable (a left join, or a column not yet set). */
export type ColumnsRow<T extends Record<string, { _: { data: unknown } }>> = {
  [K in keyof T]: T[K]["_"]["data"] | null;
};

export type DatabaseHandle = (
  | { kind: "pglite"; /** The embedded client (LISTEN in-process). */ client: PGlite }
  | { kind: "postgres"; /** The connection pool (its counts for /metrics). */ pool: pg.Pool }
) & {
  db: Database;
  /** Where the data lives, for logs: a directory, 'memory' or the server's host. */
  location: string;
  close(): Promise<void>;
  /** Runs fn while holding a database-wide lock (one migrator at a time across instances). */
  withStartupLock<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  /**
   * Applies the migrations and sets the journal's retention floor; with a migration role
   * (MIGRATION_DATABASE_URL), as that role, then grants the server's role what it needs
   * (db-roles.server.ts). `db` is the server's connection (the one holding the start-up lock).
   */
  migrate(db: Database): Promise<void>;
  /**
   * Runs fn as the owner of the tables: on its own connection with a migration role, else on the
   * server's connection (one role). For what the server's role may not do: a restore.
   */
  asOwner<T>(fn: (db: Database) => Promise<T>): Promise<T>;
};

export type DatabaseOptions = {
  databaseUrl?: string;
  /** PostgreSQL: the owner role that migrates and grants (MIGRATION_DATABASE_URL). */
  migrationUrl?: string;
  dataDir?: string;
  /** Embedded database: how long to wait for a data directory another process holds (default 0). */
  lockWaitMs?: number;
  /** Embedded database: what a new data directory gets before it is put in place. */
  prepareNew?: PgliteOptions["prepareNew"];
};

export { DataDirBusyError };

const STARTUP_LOCK_ID = 4_242_001;

export function migrationsFolder(): string {
  const candidates = [
    process.env.MIGRATIONS_DIR,
    path.resolve(process.cwd(), "drizzle"),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle"),
  ].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(path.join(p, "meta/_journal.json")));
  if (!found) throw new Error(`Migrations introuvables (cherchées dans ${candidates.join(", ")})`);
  return found;
}

/** PGlite and its drivers, loaded only when used: a server on PostgreSQL never needs them. */
async function loadPglite() {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const extensions = { pg_trgm };
  return {
    create: (dataDir?: string, image?: Blob) =>
      dataDir
        ? PGlite.create(dataDir, { extensions })
        : PGlite.create({ extensions, loadDataDir: image }),
    drizzle,
    migrate,
  };
}

/**
 * Opens DIR/pgdata, creating it first if needed. PGlite decides "existing database" on PG_VERSION,
 * which its initdb writes before the last files: a kill during creation could leave a directory
 * that looks complete but is not. And a kill while the first migrations and demo data are written
 * leaves a database that must replay them from its log, which PGlite has failed to do (CI, stop
 * 47). So a new database is created, prepared (`prepareNew`: migrations, demo data) and closed in a
 * side directory, and renamed into place only then; leftovers of an interrupted creation are
 * removed on the next start, which begins again from nothing.
 */
async function openPgliteDirectory(
  dir: string,
  open: (dataDir: string) => Promise<PGlite>,
  prepareNew: (client: PGlite) => Promise<void>,
): Promise<PGlite> {
  const dataPath = path.join(dir, "pgdata");
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith("pgdata.init-")) rmSync(path.join(dir, entry), { recursive: true });
  }
  if (!existsSync(path.join(dataPath, "PG_VERSION"))) {
    // No PG_VERSION: no database was ever completed here, so nothing can be lost.
    rmSync(dataPath, { recursive: true, force: true });
    const initPath = `${dataPath}.init-${process.pid}`;
    log.info("creating the embedded database", { location: dataPath });
    const fresh = await open(initPath);
    log.info("preparing the new embedded database", { location: initPath });
    try {
      await prepareNew(fresh);
    } finally {
      await fresh.close();
    }
    renameSync(initPath, dataPath);
  }
  try {
    return await open(dataPath);
  } catch (error) {
    // PGlite says only "failed to initialize properly": say what it means and what to do.
    throw new Error(
      `the embedded database in ${dataPath} could not be opened (${String(error)}): move that directory aside and restore the last backup into a new one (npm run db:restore, docs/production.md)`,
      { cause: error },
    );
  }
}

export type PgliteOptions = {
  /** A data directory another process holds: how long to wait for it (default 0). */
  lockWaitMs?: number;
  /** In memory: start from this `dumpDataDir()` tarball instead of an empty cluster. */
  image?: Blob;
  /**
   * A new data directory: what to do to it before it is put in place (the server's start passes
   * its migrations and demo data, see openPgliteDirectory).
   */
  prepareNew?: (handle: DatabaseHandle) => Promise<void>;
};

/**
 * The embedded database in DATA_DIR, or in memory without one. `image` starts the in-memory
 * database from a copy instead of an empty cluster: the tests open one per file from an image
 * migrated once, several times faster than initdb and migrations.
 */
export async function openPglite(
  dataDir?: string,
  options: PgliteOptions = {},
): Promise<DatabaseHandle> {
  const pglite = await loadPglite();
  if (!dataDir)
    return pgliteHandle(pglite, await pglite.create(undefined, options.image), "memory");
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const unlock = await acquireDataDirLock(dir, options.lockWaitMs ?? 0);
  try {
    const client = await openPgliteDirectory(dir, pglite.create, async (fresh) => {
      // The side directory's handle: closing is openPgliteDirectory's, after the work.
      await options.prepareNew?.(pgliteHandle(pglite, fresh, dir));
    });
    return pgliteHandle(pglite, client, dir, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

function pgliteHandle(
  pglite: Awaited<ReturnType<typeof loadPglite>>,
  client: PGlite,
  location: string,
  unlock = () => {},
): DatabaseHandle {
  // Drizzle's migrators take their own driver's instance: this one, typed as such.
  const pgliteDb = pglite.drizzle(client, { schema });
  const db: Database = pgliteDb;
  return {
    kind: "pglite",
    client,
    db,
    location,
    async close() {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
    // A single process owns the directory, so running in-process is already exclusive.
    withStartupLock: (fn) => fn(db),
    // One role: the server owns the tables (it cannot be refused anything).
    async migrate(target) {
      // One connection: `target` is this database.
      await pglite.migrate(pgliteDb, { migrationsFolder: migrationsFolder() });
      await setRetentionFloors(target, retentionFloors(env()));
    },
    asOwner: (fn) => fn(db),
  };
}

/** A single connection, closed after fn (the migration role's: it is used at start only). */
async function withConnection<T>(
  url: string,
  fn: (db: NodePgDatabase<typeof schema>) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", (error) => log.warn("database connection lost", { error: error.message }));
  await client.connect();
  try {
    return await fn(drizzlePg(client, { schema }));
  } finally {
    await client.end().catch(() => {});
  }
}

export async function openPostgres(
  databaseUrl: string,
  options: { migrationUrl?: string } = {},
): Promise<DatabaseHandle> {
  const { migrationUrl } = options;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: env().DATABASE_POOL_MAX,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A client whose connection the server ends (restart, failover: 57P01) emits 'error'; without a
  // listener that ends the process. The pool listens on idle clients only, so every client gets
  // its own listener for its whole life: checked out, in a transaction, under an advisory lock.
  // The query in flight still fails (503), and the pool drops the broken client on release.
  pool.on("error", (error) => log.warn("database pool error", { error: error.message }));
  pool.on("connect", (client) => {
    client.on("error", (error) => log.warn("database connection lost", { error: error.message }));
  });
  const pooled = drizzlePg(pool, { schema });
  const db: Database = pooled;
  // The node-postgres instances this handle gave out (the pool's, the start-up lock's), as
  // Drizzle's migrator takes them: `migrate(target)` migrates on target's own connection.
  const instances = new WeakMap<Database, NodePgDatabase<typeof schema>>([[db, pooled]]);
  const url = new URL(databaseUrl);
  return {
    kind: "postgres",
    pool,
    db,
    location: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    close: () => pool.end(),
    async withStartupLock(fn) {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK_ID]);
        const locked = drizzlePg(client, { schema });
        instances.set(locked, locked);
        return await fn(locked);
      } finally {
        const unlocked = await client
          .query("select pg_advisory_unlock($1)", [STARTUP_LOCK_ID])
          .then(
            () => true,
            () => false,
          );
        // A connection that could not unlock (broken, or stuck in a failed transaction) is closed
        // rather than pooled: closing it releases the lock, which would otherwise block the other
        // instances' start-up for as long as this process lives.
        client.release(!unlocked);
      }
    },
    async migrate(target) {
      const floors = retentionFloors(env());
      if (!migrationUrl) {
        // Tables of another role (two roles, migrated beforehand by `npm run db:migrate` with
        // MIGRATION_DATABASE_URL): this role can neither migrate nor set the floor; it starts
        // when nothing is left to apply.
        if (!(await journalIsUnprotected(target))) {
          const migrations = readMigrationFiles({ migrationsFolder: migrationsFolder() });
          const pending = await pendingMigrationCount(target, migrations);
          if (pending > 0) throw new PendingMigrationsError(pending);
          return;
        }
        await migratePg(instances.get(target) ?? pooled, { migrationsFolder: migrationsFolder() });
        await setRetentionFloors(target, floors);
        return;
      }
      const serverRole = await currentRole(target);
      await withConnection(migrationUrl, async (owner) => {
        await checkOwnership(owner);
        await migratePg(owner, { migrationsFolder: migrationsFolder() });
        await setRetentionFloors(owner, floors);
        if ((await currentRole(owner)) !== serverRole) await grantServerRole(owner, serverRole);
      });
    },
    asOwner: (fn) => (migrationUrl ? withConnection(migrationUrl, fn) : fn(db)),
  };
}

export function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { migrationUrl: options.migrationUrl })
    : openPglite(options.dataDir, {
        lockWaitMs: options.lockWaitMs,
        prepareNew: options.prepareNew,
      });
}

// The handle lives on globalThis: the Express entry and the React Router build are two module
// graphs (and Vite reloads modules in development), but there must be one connection per process.
const slot = globalThis as typeof globalThis & {
  __catalogueDb?: DatabaseHandle;
  __catalogueDbReady?: boolean;
};

/**
 * Makes `handle` the process's database. `ready: false` while the server waits for PostgreSQL
 * at start (migrations not applied yet): the HTTP layer answers 503 until markDatabaseReady().
 */
export function setCurrentDatabase(
  handle: DatabaseHandle | undefined,
  options: { ready?: boolean } = {},
): void {
  slot.__catalogueDb = handle;
  slot.__catalogueDbReady = handle !== undefined && (options.ready ?? true);
}

export function markDatabaseReady(): void {
  slot.__catalogueDbReady = slot.__catalogueDb !== undefined;
}

/** Whether the database is open and prepared (migrations applied): requests may use it. */
export function isDatabaseReady(): boolean {
  return slot.__catalogueDbReady === true;
}

export function currentDatabase(): DatabaseHandle {
  const handle = slot.__catalogueDb;
  if (!handle) throw new Error("La base de données n'est pas ouverte");
  return handle;
}

export function db(): Database {
  return currentDatabase().db;
}

export async function ping(): Promise<void> {
  await db().execute(sql`select 1`);
}
