import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { isSecureRequest, readCookie, serializeCookie } from "~/platform/cookies.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { appState } from "~/platform/schema.server";
import { siteKey } from "~/platform/site-key.server";

// The "known device" of an account (issue 28): a browser that completed a second-factor step on
// this account (a sign-in with its code, or the enrolment itself) gets a cookie that says so for
// 30 days. Sign-in counts such a browser's failures on its own (per account and device), never
// with the rest of the account's, so that someone who has the password cannot lock the owner out
// of their usual browser.
//
// The cookie is `v1.<account id>.<device id>.<issued at, s>.<HMAC-SHA256>`, the MAC (node:crypto)
// taken over those fields and the date the account's second factor was enabled: resetting or
// enrolling the factor again forgets every device of the account. The key is derived from
// TOTP_ENCRYPTION_KEY (HKDF-SHA256, issue 39: siteKey), so nothing secret sits in the database and
// every instance signs and checks alike.

export const KNOWN_DEVICE_COOKIE = "admin_device";
/** Over HTTPS: Secure, Path=/, no Domain, like the session cookie. */
export const SECURE_KNOWN_DEVICE_COOKIE = `__Host-${KNOWN_DEVICE_COOKIE}`;
export const KNOWN_DEVICE_DAYS = 30;
const KNOWN_DEVICE_MS = KNOWN_DEVICE_DAYS * 24 * 60 * 60 * 1000;
/** The app_state row of the key made without TOTP_ENCRYPTION_KEY. */
const KEY_NAME = "known_device_key";
/** HKDF's context: the same master key also encrypts the second factor's keys, for another use. */
const KEY_INFO = "serveurpro known-device cookie v1";

/** The cookie's value as the browser sends it back: parsed before anything is read from it. */
const cookieSchema = z
  .string()
  .max(200)
  .regex(/^v1\.[1-9]\d{0,9}\.[A-Za-z0-9_-]{22}\.\d{1,12}\.[A-Za-z0-9_-]{43}$/)
  .transform((value) => {
    const [, userId, deviceId, issuedAt, mac] = value.split(".");
    return { userId: Number(userId), deviceId, issuedAt: Number(issuedAt), mac };
  });

export type KnownDevice = { deviceId: string };

/** Whether a cookie value has the known-device shape (nothing checked: the MAC needs the account). */
export function isWellFormedKnownDevice(value: string | undefined): boolean {
  return cookieSchema.safeParse(value).success;
}

/** The account whose device it may be: its id and when its second factor was enabled. */
export type DeviceAccount = { id: number; totpEnabledAt: Date | null };

const KEY_USE = { name: KEY_NAME, info: KEY_INFO };
const deviceKey = (database: Database) => siteKey(KEY_USE, database);

/**
 * At start, with TOTP_ENCRYPTION_KEY: deletes the key an earlier version (or a start without the
 * variable) kept in app_state. Browsers it signed are no longer known: they sign in with their
 * second factor again, as on a new browser. True when a key was deleted.
 */
export async function forgetStoredDeviceKey(database: Database = db()): Promise<boolean> {
  if (!env().TOTP_ENCRYPTION_KEY) return false;
  const deleted = await database
    .delete(appState)
    .where(eq(appState.key, KEY_NAME))
    .returning({ key: appState.key });
  if (deleted.length === 0) return false;
  log.info(
    "known-device key deleted from the database: derived from TOTP_ENCRYPTION_KEY from now on; browsers known before sign in with their second factor again",
  );
  return true;
}

function mac(key: Buffer, fields: string, enabledAt: Date): string {
  return createHmac("sha256", key)
    .update(`known-device:${fields}:${enabledAt.getTime()}`)
    .digest("base64url");
}

/**
 * The device `value` names when it is a valid, unexpired cookie of this account (with its second
 * factor as it is now), or null. A well-formed cookie always costs the key's read, whichever
 * account it names.
 */
export async function verifyKnownDevice(
  value: string | undefined,
  account: DeviceAccount | undefined,
  database: Database = db(),
): Promise<KnownDevice | null> {
  const parsed = cookieSchema.safeParse(value);
  if (!parsed.success) return null;
  const key = await deviceKey(database);
  const { userId, deviceId, issuedAt, mac: given } = parsed.data;
  if (!account?.totpEnabledAt || account.id !== userId) return null;
  const age = Date.now() - issuedAt * 1000;
  // A minute of clock difference between instances is allowed.
  if (age > KNOWN_DEVICE_MS || age < -60_000) return null;
  const expected = Buffer.from(
    mac(key, `v1.${userId}.${deviceId}.${issuedAt}`, account.totpEnabledAt),
  );
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return null;
  return { deviceId };
}

/**
 * A cookie value for a browser that has just completed a second-factor step on `account`: the
 * same device id when it was already known (its allowance stays its own), 30 days from now.
 */
export async function issueKnownDevice(
  account: DeviceAccount & { totpEnabledAt: Date },
  previous: KnownDevice | null,
  database: Database = db(),
): Promise<string> {
  const key = await deviceKey(database);
  const deviceId = previous?.deviceId ?? randomBytes(16).toString("base64url");
  const issuedAt = Math.floor(Date.now() / 1000);
  const fields = `v1.${account.id}.${deviceId}.${issuedAt}`;
  return `${fields}.${mac(key, fields, account.totpEnabledAt)}`;
}

function cookieName(request: Request): string {
  return isSecureRequest(request) ? SECURE_KNOWN_DEVICE_COOKIE : KNOWN_DEVICE_COOKIE;
}

/** The known-device cookie the request carries (unchecked), or undefined. */
export function readKnownDevice(request: Request): string | undefined {
  return readCookie(request, cookieName(request));
}

/** Set-Cookie for a known device: HttpOnly, SameSite=Lax, Secure over HTTPS, 30 days. */
export function knownDeviceCookie(request: Request, value: string): string {
  return serializeCookie(cookieName(request), value, {
    maxAge: KNOWN_DEVICE_MS / 1000,
    secure: isSecureRequest(request),
  });
}
