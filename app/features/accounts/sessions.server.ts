import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lte, or, sql } from "drizzle-orm";
import { isRole } from "./roles";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { sessions, users } from "~/platform/schema.server";
import type { AdminUser } from "./users.server";

/** Absolute lifetime from sign-in (SESSION_MAX_HOURS): signing in again is the only way past it. */
export function sessionMaxMs(): number {
  return env().SESSION_MAX_HOURS * 60 * 60 * 1000;
}

/** Inactivity after which a session ends (SESSION_IDLE_MINUTES, sliding). */
function idleInterval() {
  return sql`${`${env().SESSION_IDLE_MINUTES} minutes`}::interval`;
}

/** last_seen_at is written at most once a minute per session: reads stay reads. */
const TOUCH_EVERY = sql`interval '1 minute'`;

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function isWellFormedToken(token: string | undefined): token is string {
  return token !== undefined && TOKEN_PATTERN.test(token);
}

/** The browser and address a session was opened from, shown in `Mon compte`. */
export type SessionClient = { userAgent?: string | null; ip?: string | null };

/** How long the code step of a sign-in waits for the second factor. */
export const SECOND_FACTOR_WAIT_MS = 5 * 60 * 1000;

/**
 * A new session: the token goes to the cookie, only its SHA-256 is stored. A session whose
 * second factor is pending opens nothing but the code step, for 5 minutes.
 */
export async function createSession(
  userId: number,
  database: Database = db(),
  client: SessionClient & { secondFactorPending?: boolean } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const pending = client.secondFactorPending ?? false;
  const expiresAt = new Date(Date.now() + (pending ? SECOND_FACTOR_WAIT_MS : sessionMaxMs()));
  await database.insert(sessions).values({
    idHash: hashSessionToken(token),
    userId,
    expiresAt,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip?.slice(0, 64) ?? null,
    secondFactorPending: pending,
  });
  return { token, expiresAt };
}

/** A session is live before its absolute end and within the idle timeout of its last activity. */
function live() {
  return and(
    eq(sessions.secondFactorPending, false),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - ${idleInterval()}`),
  );
}

export type FoundSession = {
  user: AdminUser;
  idHash: string;
  expiresAt: Date;
  authenticatedAt: Date;
  /** The account has a second factor (TOTP) enrolled. */
  secondFactor: boolean;
  /** The password was chosen by someone else: to change before anything else. */
  mustChangePassword: boolean;
};

/**
 * The account of a live session, or undefined (unknown, expired, idle or malformed token). Each
 * use slides the idle timeout (written at most once a minute).
 */
export async function findSessionUser(
  token: string | undefined,
  database: Database = db(),
): Promise<FoundSession | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const idHash = hashSessionToken(token);
  const [row] = await database
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      expiresAt: sessions.expiresAt,
      authenticatedAt: sessions.authenticatedAt,
      totpEnabledAt: users.totpEnabledAt,
      mustChangePassword: users.mustChangePassword,
      stale: sql<boolean>`${sessions.lastSeenAt} < now() - ${TOUCH_EVERY}`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), live()))
    .limit(1);
  if (!row || !isRole(row.role)) return undefined;
  if (row.stale) {
    await database
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.idHash, idHash));
  }
  return {
    user: { id: row.id, email: row.email, role: row.role },
    idHash,
    expiresAt: row.expiresAt,
    authenticatedAt: row.authenticatedAt,
    secondFactor: row.totpEnabledAt !== null,
    mustChangePassword: row.mustChangePassword,
  };
}

/** The account waiting for its second factor on this token, or undefined. */
export async function findPendingSignIn(token: string | undefined, database: Database = db()) {
  if (!isWellFormedToken(token)) return undefined;
  const idHash = hashSessionToken(token);
  const [row] = await database
    .select({ id: users.id, email: users.email, totpEnabledAt: users.totpEnabledAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, idHash),
        eq(sessions.secondFactorPending, true),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ? { user: row, idHash } : undefined;
}

/** The account's live sessions, most recently active first (`Mon compte`). */
export function listUserSessions(userId: number, database: Database = db()) {
  return database
    .select({
      publicId: sessions.publicId,
      idHash: sessions.idHash,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), live()))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.publicId));
}

/** Ends one of the account's own sessions, by the id `Mon compte` shows. */
export async function revokeUserSession(
  userId: number,
  publicId: number,
  database: Database = db(),
): Promise<{ kind: "revoked" | "missing" }> {
  const deleted = await database
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
    .returning({ idHash: sessions.idHash });
  return { kind: deleted.length > 0 ? "revoked" : "missing" };
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

/** Drops ended sessions (called at each sign-in: the table stays small without a scheduler). */
export async function pruneExpiredSessions(database: Database = db()) {
  await database
    .delete(sessions)
    .where(
      or(
        lte(sessions.expiresAt, sql`now()`),
        lte(sessions.lastSeenAt, sql`now() - ${idleInterval()}`),
      ),
    );
}
