import { clientSubject } from "./client-address.server";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { isRole } from "~/lib/roles";
import { db, type Database } from "./db.server";
import { enqueuePasswordResetMail } from "./mail-outbox.server";
import { hashPassword } from "./password.server";
import { passwordPolicyProblem } from "./password-policy.server";
import { hitRateLimit, takeAttempt } from "./rate-limit.server";
import { passwordResets, sessions, users } from "./schema.server";
import { hashSessionToken, isWellFormedToken } from "./sessions.server";
import { findUserByEmail, type AdminUser } from "./users.server";

// `Mot de passe oublié ?` (issue 20). The link's token is 32 random bytes; the table keeps its
// SHA-256 only (like session tokens). A link works once, for RESET_LINK_MINUTES, and a newer
// request of the same account replaces it. Using it sets the password and ends every session of
// the account; it never signs anyone in (the second factor is asked at the next sign-in).

/**
 * Requests per window. Refused (429) per address and per e-mail *and* address, like sign-in; the
 * mails one account receives are capped whoever asks, silently (same answer, no new mail: the
 * last link sent stays good), so that nobody can flood a mailbox or lock its owner out.
 */
export const PASSWORD_RESET_LIMITS = {
  perIp: { limit: 20, windowMs: 15 * 60 * 1000 },
  perEmailAndIp: { limit: 5, windowMs: 15 * 60 * 1000 },
  mailsPerAccount: { limit: 3, windowMs: 15 * 60 * 1000 },
} as const;

/** The rate-limit counters of one request (the e-mail hashed, as for sign-in). */
export function passwordResetRateLimitKeys(email: string, clientIp: string) {
  const account = createHash("sha256").update(email).digest("hex").slice(0, 32);
  const ip = clientSubject(clientIp);
  return {
    ip: `reset:ip:${ip}`,
    emailAndIp: `reset:email-ip:${account}:${ip}`,
    mails: `reset:email:${account}`,
  };
}

export type PasswordResetRequest =
  | {
      kind: "requested";
      /** Set when the address is an account's (for the journal and the log, never the page). */
      account?: { id: number; email: string };
      outcome: "no-account" | "mailed" | "mail-off" | "mail-limit";
    }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * A request of `Mot de passe oublié ?`. Whether the address has an account or not, the same
 * counters are written and a token is drawn; an account's request then stores the token's hash
 * and queues the mail with the link in one transaction (the previous unused links deleted).
 * `mailEnabled` false (no SMTP_URL): nothing is stored, nothing queued.
 */
export async function requestPasswordReset(
  email: string,
  clientIp: string,
  options: { mailEnabled: boolean },
  database: Database = db(),
): Promise<PasswordResetRequest> {
  const keys = passwordResetRateLimitKeys(email, clientIp);
  const refused = await takeAttempt(
    [
      { key: keys.ip, ...PASSWORD_RESET_LIMITS.perIp },
      { key: keys.emailAndIp, ...PASSWORD_RESET_LIMITS.perEmailAndIp },
    ],
    database,
  );
  if (refused) return { kind: "rate-limited", ...refused };
  await prunePasswordResets(database);
  const { limit, windowMs } = PASSWORD_RESET_LIMITS.mailsPerAccount;
  const mails = await hitRateLimit(keys.mails, limit, windowMs, database);
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashSessionToken(token);
  const user = await findUserByEmail(email, database);
  if (!user || !isRole(user.role)) return { kind: "requested", outcome: "no-account" };
  const account = { id: user.id, email: user.email };
  if (!options.mailEnabled) return { kind: "requested", account, outcome: "mail-off" };
  if (!mails.allowed) return { kind: "requested", account, outcome: "mail-limit" };
  await database.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t
      .delete(passwordResets)
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    const [reset] = await t
      .insert(passwordResets)
      .values({ userId: user.id, tokenHash, expiresAt: sql`now() + make_interval(mins => 30)` })
      .returning({ id: passwordResets.id });
    await enqueuePasswordResetMail(reset.id, token, t);
  });
  return { kind: "requested", account, outcome: "mailed" };
}

/** The account a link may still reset: known token, unused, not expired. */
export async function findUsableReset(
  token: string | undefined,
  database: Database = db(),
): Promise<{ id: number; user: AdminUser } | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const [row] = await database
    .select({ id: passwordResets.id, userId: users.id, email: users.email, role: users.role })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.tokenHash, hashSessionToken(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!row || !isRole(row.role)) return undefined;
  return { id: row.id, user: { id: row.userId, email: row.email, role: row.role } };
}

export type PasswordResetResult =
  | { kind: "reset"; user: AdminUser; sessionsEnded: number }
  | { kind: "invalid-link" }
  | { kind: "weak"; message: string };

/**
 * Sets the new password through a link: checked against the policy (common and breached
 * passwords, the account's e-mail), then in one transaction the link is marked used (only one of
 * two concurrent posts gets it), the password set, the "must change" mark cleared and every
 * session of the account ended.
 */
export async function completePasswordReset(
  token: string,
  newPassword: string,
  database: Database = db(),
): Promise<PasswordResetResult> {
  const reset = await findUsableReset(token, database);
  if (!reset) return { kind: "invalid-link" };
  const weak = passwordPolicyProblem(newPassword, reset.user.email);
  if (weak) return { kind: "weak", message: weak };
  const passwordHash = await hashPassword(newPassword);
  return database.transaction(async (tx) => {
    const claimed = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResets.id, reset.id),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: passwordResets.id });
    if (claimed.length === 0) return { kind: "invalid-link" as const };
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` })
      .where(eq(users.id, reset.user.id));
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, reset.user.id))
      .returning({ idHash: sessions.idHash });
    return { kind: "reset" as const, user: reset.user, sessionsEnded: ended.length };
  });
}

/** Drops links ended more than a day ago (called at each request: no scheduler needed). */
export async function prunePasswordResets(database: Database = db()): Promise<void> {
  await database
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, sql`now() - interval '1 day'`));
}

/** What the reset mail needs when it is sent: the account's address, while the link still works. */
export async function passwordResetMailData(
  resetId: number,
  database: Database = db(),
): Promise<{ email: string; expiresAt: Date } | undefined> {
  const [row] = await database
    .select({ email: users.email, expiresAt: passwordResets.expiresAt })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.id, resetId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    );
  return row;
}
