import { clientSubject } from "~/platform/client-address.server";
import { createHash } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { data, redirect } from "react-router";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { signInUrl } from "~/lib/redirect";
import { canOpen, isRole, type AdminArea } from "~/lib/roles";
import { withDatabase } from "~/features/offers/availability.server";
import { isSecureRequest, readCookie, serializeCookie } from "~/platform/cookies.server";
import { db, type Database } from "~/platform/db.server";
import {
  hitRateLimit,
  peekRateLimit,
  refundRateLimit,
  resetRateLimit,
  takeAttempt,
} from "~/platform/rate-limit.server";
import { signInDelayMs } from "~/lib/sign-in-delay";
import {
  hashingFull,
  HashingBusyError,
  hashPassword,
  verifyDummyPassword,
  verifyPassword,
} from "./password.server";
import {
  createSession,
  deleteSession,
  deleteSessionByHash,
  findSessionUser,
  pruneExpiredSessions,
  findPendingSignIn,
  sessionMaxMs,
  type FoundSession,
  type SessionClient,
} from "./sessions.server";
import { sessions, users } from "~/platform/schema.server";
import { findUserByEmail, type AdminUser } from "./users.server";
import { checkSecondFactor, confirmEnrolment } from "./two-factor.server";
import { journal, type JournalContext } from "~/platform/journal.server";
import { issueKnownDevice, verifyKnownDevice } from "./known-device.server";
import { enqueueAccountMail, MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import { log } from "~/platform/log.server";
import { env } from "~/platform/env.server";
import { cacheControl } from "~/lib/http-headers";

export const SESSION_COOKIE = "admin_session";
/** Over HTTPS the cookie takes the `__Host-` prefix: Secure, Path=/, no Domain, set by this host only. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

function sessionCookieName(request: Request): string {
  return isSecureRequest(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** Admin pages are private: never stored by a browser or proxy, never indexed. */
export const PRIVATE_HEADERS = {
  ...cacheControl("no-store"),
  "X-Robots-Tag": "noindex, nofollow",
} as const;

/**
 * Sign-in limits per window (issues 20 and 28). From a browser the account does not know, what
 * refuses (429) is keyed by address: per e-mail *and* address, and per address; and the account's
 * failures from all those browsers together are capped at 100 an hour (ASVS 2.2.1), slowing
 * sign-ins down from the 5th (signInDelayMs). Each is counted before the password is checked
 * (concurrent guesses cannot overshoot) and given back when it was right. A browser known to the
 * account (known-device.server.ts) has an allowance of its own, per account and device, and meets
 * none of the others: the owner signs in from it whatever is tried elsewhere.
 */
export const SIGN_IN_LIMITS = {
  perAccountAndIp: { limit: 5, windowMs: 15 * 60 * 1000 },
  perIp: { limit: 30, windowMs: 15 * 60 * 1000 },
  perAccount: { limit: 100, windowMs: 60 * 60 * 1000 },
  perKnownDevice: { limit: 5, windowMs: 15 * 60 * 1000 },
} as const;

export type AdminSession = FoundSession;

function isRead(request: Request): boolean {
  const method = request.method.toUpperCase();
  return method === "GET" || method === "HEAD";
}

export function sessionCookie(request: Request, token: string, maxAgeMs = sessionMaxMs()): string {
  return serializeCookie(sessionCookieName(request), token, {
    maxAge: maxAgeMs / 1000,
    secure: isSecureRequest(request),
  });
}

export function clearSessionCookie(request: Request): string {
  return serializeCookie(sessionCookieName(request), "", {
    maxAge: 0,
    secure: isSecureRequest(request),
  });
}

/** The signed-in administrator, or null. Never throws for a missing or bad cookie. */
export async function getAdminSession(
  request: Request,
  database: Database = db(),
): Promise<AdminSession | null> {
  // Database unreachable: the French 503 page rather than a 500 (every admin page starts here).
  return withDatabase(
    "admin session",
    {},
    async () => (await findSessionUser(sessionToken(request), database)) ?? null,
    { headers: PRIVATE_HEADERS },
  );
}

/** Where the request came from, to return there after signing in (React Router's own parameters dropped). */
function returnPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  return `${url.pathname.replace(/\.data$/, "")}${url.search}`;
}

/** ADMIN_REQUIRE_2FA, or by default: on when the site is served over https:// (not the local demo). */
export function secondFactorRequired(): boolean {
  const e = env();
  return e.ADMIN_REQUIRE_2FA ?? e.SITE_URL.startsWith("https://");
}

export const TWO_FACTOR_PATH = "/admin/account/2fa";
export const PASSWORD_CHANGE_PATH = "/admin/account";

/** Where an account must go before anything else, or null: enrolling its second factor. */
export function setupStep(session: AdminSession): string | null {
  if (session.mustChangePassword) return PASSWORD_CHANGE_PATH;
  if (secondFactorRequired() && !session.secondFactor) return TWO_FACTOR_PATH;
  return null;
}

/**
 * The one guard of the admin area, first line of every admin loader and action.
 * - Page or data reads without a live session: redirect to /auth?redirectTo=<this page>.
 * - Writes without a live session: 401, nothing changed. (Posts from another site never get
 *   here: http-server/cross-site.ts refuses them with 403 for every action.)
 * - A live session whose role may not open `area` (app/lib/roles.ts): 403, nothing read or
 *   changed. The default is the Administrateur's alone, so a route that forgets to say is closed.
 * - An account that must first enrol its second factor (setupStep) is sent there (reads) or
 *   refused (403, writes), except on the route of that step (`setup: its path`) and on the
 *   routes every step needs (`setup: "any"`: the layout, sign-out).
 */
export async function requireAdmin(
  request: Request,
  area: AdminArea = "admin",
  options: { setup?: typeof PASSWORD_CHANGE_PATH | typeof TWO_FACTOR_PATH | "any" } = {},
): Promise<AdminSession> {
  const session = await getAdminSession(request);
  if (session) {
    const pending = setupStep(session);
    const step = options.setup === "any" || options.setup === pending ? null : pending;
    if (step === null && canOpen(session.user.role, area)) return session;
    if (step !== null && isRead(request)) throw redirect(step, { headers: PRIVATE_HEADERS });
    const message = step !== null ? ADMIN_MESSAGES.setupFirst : ADMIN_MESSAGES.forbidden;
    if (isRead(request)) {
      throw data({ message }, { status: 403, headers: PRIVATE_HEADERS });
    }
    throw data({ error: message }, { status: 403, headers: PRIVATE_HEADERS });
  }
  const headers = new Headers(PRIVATE_HEADERS);
  if (sessionToken(request) !== undefined) {
    headers.append("Set-Cookie", clearSessionCookie(request));
  }
  if (isRead(request)) throw redirect(signInUrl(returnPath(request)), { headers });
  throw data({ error: ADMIN_MESSAGES.unauthorized }, { status: 401, headers });
}

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
  // A flood from unknown browsers fills the hashing line: answered at once (503), nothing read.
  if (hashingFull() && !options.knownDevice) throw new HashingBusyError();
  const keys = signInRateLimitKeys(credentials.email, clientIp);
  const found = await findUserByEmail(credentials.email, database);
  const user = found && isRole(found.role) ? { ...found, role: found.role } : undefined;
  const device = await verifyKnownDevice(options.knownDevice, user, database);
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

export function sessionToken(request: Request): string | undefined {
  return readCookie(request, sessionCookieName(request));
}

/**
 * Ends the session of this request if it is live (idempotent: an unknown or expired cookie
 * changes nothing), and gives the cookie that clears it in the browser.
 */
export async function signOut(
  request: Request,
  database: Database = db(),
): Promise<{ setCookie: string; user?: AdminUser }> {
  const session = await findSessionUser(sessionToken(request), database);
  if (session) await deleteSessionByHash(session.idHash, database);
  return { setCookie: clearSessionCookie(request), user: session?.user };
}

/**
 * The signed-in account's own password, checked under its per-account limit (`key`): the account
 * page's change, the confirmation of identity and the second-factor enrolment share it.
 */
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
