import { LOCK_WAIT_MS } from "./data-dir-lock.server";
import { openDatabase, type DatabaseHandle, setCurrentDatabase } from "./db.server";
import { env } from "./env.server";
import { log } from "./log.server";
import { pruneRateLimits } from "./rate-limit.server";
import { seedIfEmpty } from "./seed.server";
import { ensureInitialAdmin } from "./users.server";

/**
 * Opens the configured database, applies migrations and, on an empty database, loads the demo data.
 * Runs under a database-wide lock so that instances starting together do this once.
 */
export async function startDatabase(options?: {
  seed?: boolean;
  /** Create the first administrator when there is no user (default true; admin:create turns it off). */
  initialAdmin?: boolean;
  /**
   * Embedded database held by another process: how long to wait for it. The server waits (a
   * predecessor killed just before may still be going away); scripts pass 0 and stop at once.
   */
  lockWaitMs?: number;
}): Promise<DatabaseHandle> {
  const e = env();
  const handle = await openDatabase({
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    lockWaitMs: options?.lockWaitMs ?? LOCK_WAIT_MS,
  });
  try {
    await handle.withStartupLock(async (db) => {
      await handle.migrate(db);
      if ((options?.seed ?? e.SEED_DEMO) && (await seedIfEmpty(db))) {
        log.info("demo offers loaded into the empty database");
      }
      await pruneRateLimits(db);
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
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
  setCurrentDatabase(handle);
  log.info("database ready", { kind: handle.kind, location: handle.location });
  return handle;
}
