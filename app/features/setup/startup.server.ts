import { setTimeout as sleep } from "node:timers/promises";
import { isDatabaseUnavailable } from "~/platform/availability.server";
import { LOCK_WAIT_MS } from "~/platform/data-dir-lock.server";
import {
  markDatabaseReady,
  openDatabase,
  setCurrentDatabase,
  type Database,
  type DatabaseHandle,
} from "~/platform/db.server";
import { journalIsUnprotected } from "~/platform/db-roles.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { pruneRateLimits } from "~/platform/rate-limit.server";
import { seedIfEmpty } from "./seed.server";
import { forgetStoredDeviceKey } from "~/features/accounts/known-device.server";
import { sealStoredTotpKeys } from "~/features/accounts/two-factor.server";
import { ensureInitialAdmin } from "~/features/accounts/users.server";
import { sealStoredWebhookSecrets } from "~/features/webhooks/webhooks.server";

export type StartOptions = {
  seed?: boolean;
  /** Create the first administrator when there is no user (default true; admin:create turns it off). */
  initialAdmin?: boolean;
  /**
   * Embedded database held by another process: how long to wait for it. The server waits (a
   * predecessor killed just before may still be going away); scripts pass 0 and stop at once.
   */
  lockWaitMs?: number;
};

/** Opens the configured database. PostgreSQL: a pool, no connection yet. */
export function openConfiguredDatabase(options?: StartOptions): Promise<DatabaseHandle> {
  const e = env();
  return openDatabase({
    databaseUrl: e.DATABASE_URL,
    migrationUrl: e.MIGRATION_DATABASE_URL,
    dataDir: e.DATA_DIR,
    lockWaitMs: options?.lockWaitMs ?? LOCK_WAIT_MS,
    // A new embedded database is prepared before it is put in place (db.server.ts): a kill
    // during its first migrations then leaves nothing half-made behind.
    prepareNew: (handle) => prepareDatabase(handle, options),
  });
}

/**
 * Applies migrations and, on an empty database, loads the demo data and the first administrator.
 * Runs under a database-wide lock so that instances starting together do this once.
 */
export async function prepareDatabase(
  handle: DatabaseHandle,
  options?: StartOptions,
): Promise<void> {
  const e = env();
  await handle.withStartupLock(async (db: Database) => {
    await handle.migrate(db);
    if ((options?.seed ?? e.SEED_DEMO) && (await seedIfEmpty(db))) {
      log.info("demo offers loaded into the empty database");
    }
    await pruneRateLimits(db);
    await sealStoredTotpKeys(db);
    await sealStoredWebhookSecrets(db);
    await forgetStoredDeviceKey(db);
    if (options?.initialAdmin ?? true) {
      await ensureInitialAdmin(
        {
          email: e.ADMIN_EMAIL,
          password: e.ADMIN_PASSWORD,
          defaultEmail: `admin@${e.SITE_EMAIL.split("@")[1]}`,
          signInUrl: new URL("/auth", e.SITE_URL).toString(),
        },
        db,
      );
    }
  });
}

/**
 * The server's start on PostgreSQL (not the scripts'): says when the server's own role can change
 * the journal other than by appending (no MIGRATION_DATABASE_URL, or one role in both URLs). The
 * embedded database has one role: nothing to say.
 */
async function warnIfJournalUnprotected(db: Database): Promise<void> {
  const unprotected = await journalIsUnprotected(db).catch((error: unknown) => {
    log.warn("could not check the journal's protection", { error });
    return false;
  });
  if (!unprotected) return;
  log.warn(
    env().MIGRATION_DATABASE_URL ? JOURNAL_UNPROTECTED.sameRole : JOURNAL_UNPROTECTED.oneRole,
  );
}

/** The start's warnings when the server's role can alter the journal. */
export const JOURNAL_UNPROTECTED = {
  oneRole:
    "the journal is not protected: the server's role owns audit_journal and can alter or empty it; set MIGRATION_DATABASE_URL to an owner role and give DATABASE_URL a role of its own (docs/production.md)",
  sameRole:
    "the journal is not protected: DATABASE_URL's role owns audit_journal or is a superuser; give the server a role of its own (docs/production.md)",
} as const;

/** The scripts' start: open, prepare, or fail at once. */
export async function startDatabase(options?: StartOptions): Promise<DatabaseHandle> {
  const handle = await openConfiguredDatabase(options);
  try {
    await prepareDatabase(handle, options);
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
  setCurrentDatabase(handle);
  log.info("database ready", { kind: handle.kind, location: handle.location });
  return handle;
}

/** Longest wait between two attempts to reach PostgreSQL at start. */
export const START_RETRY_MAX_MS = 1_000;

/**
 * The server's start on PostgreSQL: `handle` is current but not ready (the HTTP layer answers
 * 503), and preparing it is retried while the database cannot be reached, one log line per
 * attempt, waiting 250 ms then doubling up to START_RETRY_MAX_MS; `unreachable` is called after
 * the first failed attempt (the server then listens, to say so). Other errors (a failed
 * migration, wrong credentials) end the wait. Returns false when `shouldStop` turned true.
 */
export async function prepareDatabaseWhenReachable(
  handle: DatabaseHandle,
  shouldStop: () => boolean,
  unreachable: () => void = () => {},
): Promise<boolean> {
  setCurrentDatabase(handle, { ready: false });
  for (let attempt = 1; !shouldStop(); attempt++) {
    try {
      await prepareDatabase(handle);
      await warnIfJournalUnprotected(handle.db);
      markDatabaseReady();
      log.info("database ready", { kind: handle.kind, location: handle.location, attempt });
      return true;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      unreachable();
      const retryInMs = Math.min(START_RETRY_MAX_MS, 250 * 2 ** (attempt - 1));
      log.warn("database not reachable; retrying", {
        attempt,
        retryInMs,
        location: handle.location,
        error: error instanceof Error ? error.message : String(error),
      });
      await sleep(retryInMs);
    }
  }
  return false;
}
