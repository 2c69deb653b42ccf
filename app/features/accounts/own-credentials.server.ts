// The signed-in account's own credentials: password change, identity confirmation,
// second-factor enrolment.
import { and, eq, ne, sql } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { resetRateLimit, takeAttempt } from "~/platform/rate-limit.server";
import { hashPassword, verifyPassword } from "./password.server";
import { sessions, users } from "~/platform/schema.server";
import { checkSecondFactor, confirmEnrolment } from "./two-factor.server";
import { journal, type JournalContext } from "~/platform/journal.server";
import { issueKnownDevice } from "./known-device.server";
import { env } from "~/platform/env.server";
import { type AdminSession } from "./auth.server";

async function checkOwnPassword(
  userId: number,
  password: string,
  limit: { key: string; limit: number; windowMs: number },
  database: Database,
): Promise<
  { kind: "right" } | { kind: "wrong" } | { kind: "rate-limited"; retryAfterSeconds: number }
> {
  const refused = await takeAttempt([limit], database);
  if (refused) return { kind: "rate-limited", ...refused };
  const [user] = await database
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  const right =
    user !== undefined &&
    (await verifyPassword(user.passwordHash, password.slice(0, 256), { priority: true }));
  return { kind: right ? "right" : "wrong" };
}

/** Checks of the current password on the account page, per administrator (like sign-in's per e-mail). */
export const PASSWORD_CHANGE_LIMIT = { limit: 5, windowMs: 15 * 60 * 1000 } as const;

export type PasswordChangeResult =
  | { kind: "changed" }
  | { kind: "wrong-password" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * Changes the signed-in administrator's password when `currentPassword` is right (rate-limited
 * like sign-in). Their other sessions end in the same transaction; the current one stays.
 */
export async function changeOwnPassword(
  session: AdminSession,
  passwords: { currentPassword: string; newPassword: string },
  context: JournalContext = { requestId: "" },
  database: Database = db(),
): Promise<PasswordChangeResult> {
  const key = `password:user:${session.user.id}`;
  const current = await checkOwnPassword(
    session.user.id,
    passwords.currentPassword,
    { key, ...PASSWORD_CHANGE_LIMIT },
    database,
  );
  if (current.kind === "rate-limited") return current;
  if (current.kind === "wrong") return { kind: "wrong-password" };
  const passwordHash = await hashPassword(passwords.newPassword, { priority: true });
  await database.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` })
      .where(eq(users.id, session.user.id));
    await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, session.user.id), ne(sessions.idHash, session.idHash)));
    await journal.recordWithChange(tx, context, {
      actor: session.user,
      action: "password-changed",
    });
  });
  await resetRateLimit(key, database);
  return { kind: "changed" };
}

/** Confirmations of identity per account and window (password, and code when enrolled). */
export const REAUTH_LIMIT = { limit: 5, windowMs: 15 * 60 * 1000 } as const;

/** Form fields of `Confirmez votre identité`, beside the fields of what was asked. */
export const REAUTH_FIELDS = { password: "reauthPassword", code: "reauthCode" } as const;

/** The account signed in or confirmed its identity within ADMIN_REAUTH_MINUTES. */
export function recentlyAuthenticated(session: AdminSession): boolean {
  return Date.now() - session.authenticatedAt.getTime() <= env().ADMIN_REAUTH_MINUTES * 60_000;
}

export type IdentityCheck =
  | { kind: "recent" }
  | { kind: "confirmed" }
  | { kind: "needed"; secondFactor: boolean }
  | { kind: "wrong"; secondFactor: boolean }
  | { kind: "rate-limited"; secondFactor: boolean; retryAfterSeconds: number };

/**
 * Re-authentication before a sensitive action (issue 20): nothing to do when the session is
 * recent; otherwise the password (and a code when enrolled) typed in `form` under REAUTH_FIELDS
 * must be right, and the session counts as recent again.
 */
export async function confirmIdentity(
  session: AdminSession,
  form: FormData,
  database: Database = db(),
): Promise<IdentityCheck> {
  if (recentlyAuthenticated(session)) return { kind: "recent" };
  const { secondFactor } = session;
  const password = form.get(REAUTH_FIELDS.password);
  if (typeof password !== "string" || password === "") return { kind: "needed", secondFactor };
  const key = `reauth:user:${session.user.id}`;
  const checked = await checkOwnPassword(
    session.user.id,
    password,
    { key, ...REAUTH_LIMIT },
    database,
  );
  if (checked.kind === "rate-limited") return { ...checked, secondFactor };
  const passwordOk = checked.kind === "right";
  const code = form.get(REAUTH_FIELDS.code);
  const codeOk =
    !secondFactor ||
    (passwordOk &&
      typeof code === "string" &&
      (await checkSecondFactor(session.user.id, code.slice(0, 40), database)).kind !==
        "wrong-code");
  if (!passwordOk || !codeOk) return { kind: "wrong", secondFactor };
  await resetRateLimit(key, database);
  await database
    .update(sessions)
    .set({ authenticatedAt: sql`now()` })
    .where(eq(sessions.idHash, session.idHash));
  return { kind: "confirmed" };
}

export type EnrolmentResult =
  | { kind: "enabled"; recoveryCodes: string[]; knownDevice: string }
  | { kind: "wrong-password" }
  | { kind: "wrong-code" }
  | { kind: "missing" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * `Activer la double authentification` (issues 20 and 28): the current password first (checked
 * here, counted with the confirmations of identity), then the code of the key being enrolled. On
 * success the account's other sessions end and the journal says so (one transaction, in
 * confirmEnrolment), and this browser becomes a known device of the account.
 */
export async function enrolSecondFactor(
  session: AdminSession,
  input: { currentPassword: string; code: string },
  context: JournalContext,
  database: Database = db(),
): Promise<EnrolmentResult> {
  const key = `reauth:user:${session.user.id}`;
  const checked = await checkOwnPassword(
    session.user.id,
    input.currentPassword,
    { key, ...REAUTH_LIMIT },
    database,
  );
  if (checked.kind === "rate-limited") return checked;
  if (checked.kind === "wrong") return { kind: "wrong-password" };
  // The limit is for password guesses: a mistyped code with the right password costs nothing.
  await resetRateLimit(key, database);
  const result = await confirmEnrolment(
    session.user.id,
    input.code,
    { keepSession: session.idHash, context, actor: session.user },
    database,
  );
  if (result.kind !== "enabled") return result;
  const knownDevice = await issueKnownDevice(
    { id: session.user.id, totpEnabledAt: result.enabledAt },
    null,
    database,
  );
  return { kind: "enabled", recoveryCodes: result.recoveryCodes, knownDevice };
}
