import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { log } from "./log.server";

// Secrets the server must read back (the TOTP keys), encrypted at rest with AES-256-GCM from
// node:crypto, the key kept outside the database (TOTP_ENCRYPTION_KEY): a copy of the database or
// of a backup then gives no second factor away. Stored as 'v1:' + base64(iv | tag | ciphertext),
// bound to its row by the associated data. A value without the prefix was stored in clear (before
// the key was set) and is read as is.

const PREFIX = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The stored value is encrypted (it needs the key to be read). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** `plain` encrypted with `key` for `context` (e.g. the row's id); in clear without a key. */
export function seal(plain: string, key: Buffer | undefined, context: string): string {
  if (!key) return plain;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/**
 * The plain value of what `seal` stored, or null when it cannot be read: encrypted but no key,
 * another key, another context, or altered.
 */
export function open(stored: string, key: Buffer | undefined, context: string): string | null {
  if (!isSealed(stored)) return stored;
  if (!key) return null;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64");
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const body = raw.subarray(IV_BYTES + TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * At start, before sealing what is stored in clear: without TOTP_ENCRYPTION_KEY, says what cannot
 * be read (sealed secrets) and, on an HTTPS site, what stays in clear. False: nothing to seal.
 */
export function canSealStored(
  what: { secrets: string; unit: string },
  counts: { sealed: number; clear: number },
  settings: { key: Buffer | undefined; siteUrl: string },
): boolean {
  if (settings.key) return true;
  if (counts.sealed > 0) {
    log.error(`${what.secrets} are encrypted but TOTP_ENCRYPTION_KEY is not set`, {
      [what.unit]: counts.sealed,
    });
  }
  if (counts.clear > 0 && settings.siteUrl.startsWith("https://")) {
    log.warn(`${what.secrets} are stored in clear: set TOTP_ENCRYPTION_KEY`, {
      [what.unit]: counts.clear,
    });
  }
  return false;
}
