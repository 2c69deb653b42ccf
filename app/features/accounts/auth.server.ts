import { data, redirect } from "react-router";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { signInUrl } from "./redirect";
import { canOpen, type AdminArea } from "./roles";
import { withDatabase } from "~/platform/availability.server";
import { isSecureRequest, readCookie, serializeCookie } from "~/platform/cookies.server";
import { db, type Database } from "~/platform/db.server";
import {
  deleteSessionByHash,
  findSessionUser,
  sessionMaxMs,
  type FoundSession,
} from "./sessions.server";
import { type AdminUser } from "./users.server";
import { env } from "~/platform/env.server";
import { PRIVATE_HEADERS } from "~/lib/http-headers";

export const SESSION_COOKIE = "admin_session";
/** Over HTTPS the cookie takes the `__Host-` prefix: Secure, Path=/, no Domain, set by this host only. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

function sessionCookieName(request: Request): string {
  return isSecureRequest(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

// Defined beside cacheControl, below the features (the form protocol in platform sends them too).
export { PRIVATE_HEADERS };

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
