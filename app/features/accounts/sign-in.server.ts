// Signing in: password, limits, the second factor and the session it opens.
import { clientSubject } from "~/platform/client-address.server";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { isRole } from "./roles";
import { db, type Database } from "~/platform/db.server";
import {
  hitRateLimit,
  peekRateLimit,
  refundRateLimit,
  resetRateLimit,
  takeAttempt,
} from "~/platform/rate-limit.server";
import { signInDelayMs } from "./sign-in-delay";
import {
  hashingFull,
  HashingBusyError,
  verifyDummyPassword,
  verifyPassword,
} from "./password.server";
import {
  createSession,
  deleteSession,
  deleteSessionByHash,
  pruneExpiredSessions,
  findPendingSignIn,
  type SessionClient,
} from "./sessions.server";
import { users } from "~/platform/schema.server";
import { findUserByEmail, type AdminUser } from "./users.server";
import { checkSecondFactor } from "./two-factor.server";
import { journal, type JournalContext } from "~/platform/journal.server";
import {
  isWellFormedKnownDevice,
  issueKnownDevice,
  verifyKnownDevice,
} from "./known-device.server";
import { enqueueAccountMail, MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { log } from "~/platform/log.server";
import { SIGN_IN_LIMITS } from "./auth.server";

/** The rate-limit counters of one sign-in attempt (the e-mail is hashed: no addresses in that table). */
export function signInRateLimitKeys(email: string, clientIp: string) {
  const account = createHash("sha256").update(email).digest("hex").slice(0, 32);
  const ip = clientSubject(clientIp);
  return {
    ip: `signin:ip:${ip}`,
    accountAndIp: `signin:email-ip:${account}:${ip}`,
    account: `signin:email:${account}`,
    knownDevice: (deviceId: string) => `signin:device:${account}:${deviceId}`,
  };
}

export type SignInResult =
  | { kind: "signed-in"; user: AdminUser; token: string; expiresAt: Date }
  | { kind: "second-factor"; user: AdminUser; token: string; expiresAt: Date }
  | { kind: "invalid"; account?: { id: number; email: string } }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/** Waits `ms` (the account's slow-down); replaced in tests to see the delay without waiting it. */
export type Wait = (ms: number) => Promise<void>;
const sleep: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type SignInOptions = {
  previousToken?: string;
  wait?: Wait;
  client?: SessionClient;
  /** The known-device cookie the browser sent (checked here). */
  knownDevice?: string;
  /** The request's id, for the journal entry written with the new session. */
  requestId?: string;
};

/**
 * Checks the credentials under the sign-in limits (SIGN_IN_LIMITS). An unknown e-mail costs the
 * same password verification as a known one and gives the same answer. On success, a new session,
 * journaled in the same transaction (or, with a second factor, the pending step). Throws
 * HashingBusyError when too many passwords are being checked at once (the page answers 503).
 */
export async function signIn(
  credentials: { email: string; password: string },
  clientIp: string,
  options: SignInOptions = {},
  database: Database = db(),
): Promise<SignInResult> {
  // A flood from unknown browsers fills the hashing line: answered at once (503), nothing read
  // unless the browser sends a well-formed known-device cookie. Only a valid one (checked against
  // the account) gets the line of its own; any other is refused before anything is counted.
  const full = hashingFull();
  if (full && !isWellFormedKnownDevice(options.knownDevice)) throw new HashingBusyError();
  const keys = signInRateLimitKeys(credentials.email, clientIp);
  const found = await findUserByEmail(credentials.email, database);
  const user = found && isRole(found.role) ? { ...found, role: found.role } : undefined;
  const device = await verifyKnownDevice(options.knownDevice, user, database);
  if (full && !device) throw new HashingBusyError();
  let failures = 0;
  if (!device) failures = (await peekRateLimit(keys.account, database)).count;
  const refused = await takeAttempt(
    device
      ? [{ key: keys.knownDevice(device.deviceId), ...SIGN_IN_LIMITS.perKnownDevice }]
      : [
          { key: keys.ip, ...SIGN_IN_LIMITS.perIp },
          { key: keys.accountAndIp, ...SIGN_IN_LIMITS.perAccountAndIp },
          { key: keys.account, ...SIGN_IN_LIMITS.perAccount },
        ],
    database,
  );
  if (refused) return { kind: "rate-limited", ...refused };
  // The account's recent failures from unknown browsers slow this attempt down; a known browser
  // never waits for them.
  const delay = signInDelayMs(failures);
  if (delay > 0) await (options.wait ?? sleep)(delay);
  const valid = user
    ? await verifyPassword(user.passwordHash, credentials.password, { priority: device !== null })
    : await verifyDummyPassword(credentials.password);
  if (!user || !valid) {
    return { kind: "invalid", account: user ? { id: user.id, email: user.email } : undefined };
  }
  if (device) {
    await resetRateLimit(keys.knownDevice(device.deviceId), database);
  } else {
    await resetRateLimit(keys.accountAndIp, database);
    // The address's and the account's limits are for failures: a right password gives its
    // attempt back (an office of colleagues behind one address signs in all day). The account's
    // failures stay counted for their hour: the owner's success does not give a guesser 100 more.
    await refundRateLimit(keys.ip, database);
    await refundRateLimit(keys.account, database);
  }
  // A new session id at each sign-in; the one the browser had before (if any) is ended.
  await deleteSession(options.previousToken, database);
  await pruneExpiredSessions(database);
  const account = { id: user.id, email: user.email, role: user.role };
  if (user.totpEnabledAt) {
    // The password is right; the session opens only once the code is (completeSecondFactor).
    const pending = await createSession(user.id, database, {
      ...options.client,
      secondFactorPending: true,
    });
    return { kind: "second-factor", user: account, ...pending };
  }
  const session = await openSession(
    account,
    options.client ?? {},
    { requestId: options.requestId ?? "", clientIp },
    database,
  );
  return { kind: "signed-in", user: account, ...session };
}

/** A full session and its `Connexion` journal entry, in one transaction: no entry, no session. */
async function openSession(
  user: AdminUser,
  client: SessionClient,
  context: JournalContext,
  database: Database,
) {
  return database.transaction(async (tx) => {
    const session = await createSession(user.id, tx, client);
    await journal.recordWithChange(tx, context, { actor: user, action: "sign-in" });
    return session;
  });
}

/**
 * Codes tried at the code step of sign-in (issue 28), a wrong one counted: from a browser the
 * account does not know, per account and address and per account; from a known browser, per
 * account and device only. Wrong codes after a right password are someone who has the password:
 * the 5th of an episode (24 hours from the first) mails the account and is journaled.
 */
export const SECOND_FACTOR_LIMITS = {
  perAccountAndIp: { limit: 5, windowMs: 15 * 60 * 1000 },
  perAccount: { limit: 10, windowMs: 15 * 60 * 1000 },
  perKnownDevice: { limit: 5, windowMs: 15 * 60 * 1000 },
  alert: { after: 5, windowMs: 24 * 60 * 60 * 1000 },
} as const;

/** The rate-limit counters of the code step for one account. */
export function secondFactorRateLimitKeys(userId: number, clientIp: string) {
  return {
    accountAndIp: `2fa:user-ip:${userId}:${clientSubject(clientIp)}`,
    account: `2fa:user:${userId}`,
    knownDevice: (deviceId: string) => `2fa:device:${userId}:${deviceId}`,
    alert: `2fa:alert:${userId}`,
  };
}

export type SecondFactorResult =
  | {
      kind: "signed-in";
      user: AdminUser;
      token: string;
      expiresAt: Date;
      method: string;
      /** The known-device cookie's new value (renewed for 30 days). */
      knownDevice: string;
    }
  | { kind: "expired" }
  | { kind: "wrong-code"; user: { id: number; email: string }; alerted: boolean }
  | { kind: "rate-limited"; retryAfterSeconds: number; user: { id: number; email: string } };

export type SecondFactorOptions = {
  client?: SessionClient;
  /** The known-device cookie the browser sent (checked here). */
  knownDevice?: string;
  requestId?: string;
};

/**
 * The code step of a sign-in: the pending session of `token` becomes a full session under a new
 * token when `code` is a valid TOTP code (once per time step) or an unused recovery code; the
 * browser becomes (or stays) a known device of the account.
 */
export async function completeSecondFactor(
  token: string | undefined,
  code: string,
  clientIp: string,
  options: SecondFactorOptions = {},
  database: Database = db(),
): Promise<SecondFactorResult> {
  const pending = await findPendingSignIn(token, database);
  if (!pending) return { kind: "expired" };
  const user = { id: pending.user.id, email: pending.user.email };
  const device = await verifyKnownDevice(options.knownDevice, pending.user, database);
  const keys = secondFactorRateLimitKeys(user.id, clientIp);
  const { perAccountAndIp, perAccount, perKnownDevice } = SECOND_FACTOR_LIMITS;
  const refused = await takeAttempt(
    device
      ? [{ key: keys.knownDevice(device.deviceId), ...perKnownDevice }]
      : [
          { key: keys.accountAndIp, ...perAccountAndIp },
          { key: keys.account, ...perAccount },
        ],
    database,
  );
  if (refused) return { kind: "rate-limited", ...refused, user };
  const context = { requestId: options.requestId ?? "", clientIp };
  const check = await checkSecondFactor(user.id, code, database);
  if (check.kind === "wrong-code") {
    const { after, windowMs } = SECOND_FACTOR_LIMITS.alert;
    const episode = await hitRateLimit(keys.alert, after, windowMs, database);
    // Exactly one attempt sees the count reach `after`: one mail per episode.
    const alerted = episode.count === after;
    if (alerted) await raiseSecondFactorAlert(user, context, database);
    return { kind: "wrong-code", user, alerted };
  }
  if (device) {
    await resetRateLimit(keys.knownDevice(device.deviceId), database);
  } else {
    await resetRateLimit(keys.accountAndIp, database);
    // The account's count keeps the wrong codes of others: the owner's success gives them no more.
    await refundRateLimit(keys.account, database);
  }
  await deleteSessionByHash(pending.idHash, database);
  const [row] = await database
    .select({ role: users.role, totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, user.id));
  if (!row || !isRole(row.role) || !row.totpEnabledAt) return { kind: "expired" };
  const account = { ...user, role: row.role };
  const session = await openSession(account, options.client ?? {}, context, database);
  const knownDevice = await issueKnownDevice(
    { id: user.id, totpEnabledAt: row.totpEnabledAt },
    device,
    database,
  );
  return { kind: "signed-in", user: account, ...session, method: check.kind, knownDevice };
}

/**
 * Someone who has the account's password keeps typing wrong codes: the account is mailed (through
 * the outbox, rendered when sent) and the journal says so, together or not at all.
 */
async function raiseSecondFactorAlert(
  user: { id: number; email: string },
  context: JournalContext,
  database: Database,
) {
  await database.transaction(async (tx) => {
    await enqueueAccountMail(user.id, MAIL_KINDS.secondFactorAlert, tx);
    await journal.recordWithChange(tx, context, { actor: user, action: "second-factor-alert" });
  });
  log.warn("wrong second-factor codes after the right password: account alerted", {
    requestId: context.requestId,
    userId: user.id,
  });
}
