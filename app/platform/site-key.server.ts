import { hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "./db.server";
import { env } from "./env.server";
import { appState } from "./schema.server";

/** One use of a site key: its HKDF context, and the app_state row of the key made without one. */
export type KeyUse = { info: string; name: string };

const derived = new Map<string, { from: string; key: Buffer }>();

/**
 * The 32-byte key of one use, the same on every instance: derived from TOTP_ENCRYPTION_KEY
 * (HKDF-SHA256, `info` naming the use: the master key also encrypts the second factor's keys), so
 * nothing secret sits in the database. Without that variable (development, the demo on localhost;
 * production requires it) it is 32 random bytes made once per database, kept in app_state.
 */
export async function siteKey(use: KeyUse, database: Database): Promise<Buffer> {
  const master = env().TOTP_ENCRYPTION_KEY;
  if (master) {
    const from = master.toString("base64");
    const known = derived.get(use.info);
    if (known?.from === from) return known.key;
    const key = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), use.info, 32));
    derived.set(use.info, { from, key });
    return key;
  }
  const read = () =>
    database.select({ value: appState.value }).from(appState).where(eq(appState.key, use.name));
  let [row] = await read();
  if (!row) {
    await database
      .insert(appState)
      .values({ key: use.name, value: randomBytes(32).toString("hex") })
      .onConflictDoNothing();
    [row] = await read();
  }
  return Buffer.from(row.value, "hex");
}
