import { clientSubject } from "~/platform/client-address.server";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { isRole } from "./roles";
import { db, type Database } from "~/platform/db.server";
import { RESET_LINK_MINUTES } from "./password-reset";
import { journal, type JournalContext } from "~/platform/journal.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { hashPassword } from "./password.server";
import { passwordPolicyProblem } from "./password-policy.server";
import { hitRateLimit, takeAttempt } from "~/platform/rate-limit.server";
import { mailOutbox, passwordResets, sessions, users } from "~/platform/schema.server";
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
 * A request of `Mot de passe oublié ?`. Whether the address has an account or not, the same work
 * is done (issue 28): the same counters, the same account look-up, the same statements in one
 * transaction (forget the account's unused links, store a new one and queue its mail, both
 * conditional on the account, so an unknown address writes no row), the same journal entry and
 * the same wake-up of the mail workers. No token is drawn here: the worker draws the link's token
 * when it sends the mail and stores only its hash (drawResetLink), so that the database never
 * holds a usable link. `mailEnabled` false (no SMTP_URL) or the account's mail cap reached:
 * nothing stored, nothing queued, the last link sent stays good.
 */
export async function requestPasswordReset(
  email: string,
  clientIp: string,
  options: { mailEnabled: boolean; requestId?: string },
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
  const user = await findUserByEmail(email, database);
  const account = user && isRole(user.role) ? { id: user.id, email: user.email } : undefined;
  const store = options.mailEnabled && mails.allowed;
  // No account has id 0: for an unknown address the statements below match no row.
  const userId = account?.id ?? 0;
  // A hash no one has the token of, until the worker draws the link's own.
  const placeholder = hashSessionToken(randomBytes(32).toString("base64url"));
  const context = { requestId: options.requestId ?? "", clientIp };
  await database.transaction(async (tx) => {
    await tx.execute(sql`
      with forgotten as (
        delete from ${passwordResets}
        where user_id = ${userId} and used_at is null and ${store}
      ), reset as (
        insert into ${passwordResets} (user_id, token_hash, expires_at)
        select id, ${placeholder}, now() + make_interval(mins => ${RESET_LINK_MINUTES})
        from ${users} where id = ${userId} and ${store}
        returning id
      )
      insert into ${mailOutbox} (password_reset_id, kind)
      select id, ${MAIL_KINDS.passwordReset} from reset`);
    await journal.recordWithChange(tx, context, {
      actor: account,
      action: "password-reset-requested",
    });
    await notifyMailWorkers(tx);
  });
  if (!account) return { kind: "requested", outcome: "no-account" };
  if (!options.mailEnabled) return { kind: "requested", account, outcome: "mail-off" };
  if (!mails.allowed) return { kind: "requested", account, outcome: "mail-limit" };
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
  context: JournalContext = { requestId: "" },
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
    await journal.recordWithChange(tx, context, { actor: reset.user, action: "password-reset" });
    return { kind: "reset" as const, user: reset.user, sessionsEnded: ended.length };
  });
}

/** Drops links ended more than a day ago (called at each request: no scheduler needed). */
export async function prunePasswordResets(database: Database = db()): Promise<void> {
  await database
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, sql`now() - interval '1 day'`));
}

/**
 * The link of a reset mail, drawn when the mail is sent (issue 28): a new token whose hash replaces
 * the reset's, while the reset is still usable, with the account's address. A second attempt
 * draws another token (the newest mail's link is the one that works). Undefined when the reset is
 * used, expired or replaced.
 */
export async function drawResetLink(
  resetId: number,
  database: Database = db(),
): Promise<{ token: string; email: string; expiresAt: Date } | undefined> {
  const token = randomBytes(32).toString("base64url");
  const [reset] = await database
    .update(passwordResets)
    .set({ tokenHash: hashSessionToken(token) })
    .where(
      and(
        eq(passwordResets.id, resetId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResets.userId, expiresAt: passwordResets.expiresAt });
  if (!reset) return undefined;
  const [user] = await database
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, reset.userId));
  return user ? { token, email: user.email, expiresAt: reset.expiresAt } : undefined;
}
