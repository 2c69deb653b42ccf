import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { db, type Database } from "./db.server";
import { sessions, users } from "./schema.server";
import { isRole } from "~/lib/roles";
import type { AdminUser } from "./users.server";

/** Sessions last 7 days from sign-in, not sliding: signing in again is the only way to extend one. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function isWellFormedToken(token: string | undefined): token is string {
  return token !== undefined && TOKEN_PATTERN.test(token);
}

/** A new session: the token goes to the cookie, only its SHA-256 is stored. */
export async function createSession(
  userId: number,
  database: Database = db(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await database.insert(sessions).values({ idHash: hashSessionToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/** The administrator of a live session, or undefined (unknown, expired or malformed token). */
export async function findSessionUser(
  token: string | undefined,
  database: Database = db(),
): Promise<{ user: AdminUser; idHash: string; expiresAt: Date } | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const idHash = hashSessionToken(token);
  const [row] = await database
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row || !isRole(row.role)) return undefined;
  return {
    user: { id: row.id, email: row.email, role: row.role },
    idHash,
    expiresAt: row.expiresAt,
  };
}

export async function deleteSession(token: string | undefined, database: Database = db()) {
  if (!isWellFormedToken(token)) return;
  await database.delete(sessions).where(eq(sessions.idHash, hashSessionToken(token)));
}

export async function deleteSessionByHash(idHash: string, database: Database = db()) {
  await database.delete(sessions).where(eq(sessions.idHash, idHash));
}

export async function deleteUserSessions(userId: number, database: Database = db()) {
  await database.delete(sessions).where(eq(sessions.userId, userId));
}

/** Drops expired sessions (called at each sign-in: the table stays small without a scheduler). */
export async function pruneExpiredSessions(database: Database = db()) {
  await database.delete(sessions).where(lte(sessions.expiresAt, sql`now()`));
}
