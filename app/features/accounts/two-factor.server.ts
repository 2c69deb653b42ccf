import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { journal, type Journaled } from "~/platform/journal.server";
import { log } from "~/platform/log.server";
import { recoveryCodes, sessions, users } from "~/platform/schema.server";
import { canSealStored, isSealed, open, seal } from "~/platform/secret-box.server";

// Second factor (issue 20): TOTP as RFC 6238 (SHA-1, 6 digits, 30 s), with the otpauth library,
// and 10 single-use recovery codes. The QR code is drawn on the server (qrcode) as an SVG image.

export const RECOVERY_CODE_COUNT = 10;

// The keys are stored encrypted when TOTP_ENCRYPTION_KEY is set (secret-box.server.ts), each bound
// to its account.
const totpKey = () => env().TOTP_ENCRYPTION_KEY;
const accountContext = (userId: number) => `users.totp:${userId}`;
const sealKey = (userId: number, plain: string) => seal(plain, totpKey(), accountContext(userId));
const openKey = (userId: number, stored: string) => open(stored, totpKey(), accountContext(userId));

function totp(secret: string, label: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
}

/** The key in groups of four, as typed into an app by hand. */
export function groupKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

export type Enrolment = { key: string; uri: string; qrCode: string };

/**
 * The key being enrolled for `user` (a new one on the first call, kept on the account, never in a
 * form), with its otpauth:// address and that address as an SVG QR code (a data: URL).
 */
export async function startEnrolment(
  user: { id: number; email: string },
  issuer: string,
  database: Database = db(),
): Promise<Enrolment> {
  const fresh = new Secret({ size: 20 }).base32;
  await database
    .update(users)
    .set({ totpPendingSecret: sealKey(user.id, fresh) })
    .where(and(eq(users.id, user.id), isNull(users.totpPendingSecret)));
  const [row] = await database
    .select({ secret: users.totpPendingSecret })
    .from(users)
    .where(eq(users.id, user.id));
  let secret = row?.secret ? openKey(user.id, row.secret) : fresh;
  if (secret === null) {
    // Sealed with a key this server no longer has: enrolment starts again with a new key.
    await database
      .update(users)
      .set({ totpPendingSecret: sealKey(user.id, fresh) })
      .where(eq(users.id, user.id));
    secret = fresh;
  }
  const uri = totp(secret, user.email, issuer).toString();
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    key: secret,
    uri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/** The time step a 6-digit code belongs to, within one step of now, or null. */
function matchingStep(secret: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, "", "").validate({ token: code, window: 1 });
  if (delta === null) return null;
  return Math.floor(Date.now() / 1000 / 30) + delta;
}

function hashRecoveryCode(code: string, salt: string): string {
  return createHash("sha256").update(`${salt}:${code}`).digest("hex");
}

/** 'abcd efgh-ijkl mnop' and 'ABCDEFGHIJKLMNOP' are the same code. */
function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

/** 80 random bits in base32, shown as four groups of four. */
function newRecoveryCode(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => alphabet[b & 31]).join("");
  return chars.replace(/(.{4})(?=.)/g, "$1-");
}

export type ConfirmEnrolmentResult =
  | { kind: "enabled"; recoveryCodes: string[]; enabledAt: Date }
  | { kind: "wrong-code" }
  | { kind: "missing" };

/**
 * Turns the second factor on when `code` matches the key being enrolled: the key becomes the
 * account's, and 10 recovery codes are made, given back once and stored salted and hashed. In the
 * same transaction (issue 28) the account's other sessions end (whoever else was signed in with
 * the password alone) and the journal gets its entry: no entry, no change.
 */
export async function confirmEnrolment(
  userId: number,
  code: string,
  change: Journaled & { keepSession: string },
  database: Database = db(),
): Promise<ConfirmEnrolmentResult> {
  const [row] = await database
    .select({ pending: users.totpPendingSecret })
    .from(users)
    .where(eq(users.id, userId));
  const pending = row?.pending ? openKey(userId, row.pending) : null;
  if (pending === null) return { kind: "missing" };
  const step = matchingStep(pending, code.trim());
  if (step === null) return { kind: "wrong-code" };
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabledAt = await database.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({
        totpSecret: row.pending,
        totpPendingSecret: null,
        totpEnabledAt: sql`now()`,
        totpLastStep: step,
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, userId), eq(users.totpPendingSecret, row.pending!)))
      .returning({ enabledAt: users.totpEnabledAt });
    if (!updated?.enabledAt) return null;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(
      codes.map((c) => {
        const salt = randomBytes(16).toString("hex");
        return { userId, codeHash: `${salt}:${hashRecoveryCode(normalizeRecoveryCode(c), salt)}` };
      }),
    );
    await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.idHash, change.keepSession)));
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "second-factor-enabled",
    });
    return updated.enabledAt;
  });
  return enabledAt ? { kind: "enabled", recoveryCodes: codes, enabledAt } : { kind: "missing" };
}

export type SecondFactorCheck = { kind: "totp" | "recovery-code" } | { kind: "wrong-code" };

/**
 * Checks a 6-digit code (each time step is accepted once: a code seen over a shoulder cannot be
 * replayed) or a recovery code (used up by this check).
 */
export async function checkSecondFactor(
  userId: number,
  code: string,
  database: Database = db(),
): Promise<SecondFactorCheck> {
  const typed = code.trim();
  const [row] = await database
    .select({ secret: users.totpSecret })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.secret) return { kind: "wrong-code" };
  if (/^\d{6}$/.test(typed)) {
    const secret = openKey(userId, row.secret);
    if (secret === null) {
      // Recovery codes still work; an administrator can reset the second factor.
      log.error("second factor unreadable: TOTP_ENCRYPTION_KEY missing or changed", { userId });
      return { kind: "wrong-code" };
    }
    const step = matchingStep(secret, typed);
    if (step === null) return { kind: "wrong-code" };
    const [accepted] = await database
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))),
      )
      .returning({ id: users.id });
    return accepted ? { kind: "totp" } : { kind: "wrong-code" };
  }
  const normalized = normalizeRecoveryCode(typed);
  if (!/^[A-Z2-7]{16}$/.test(normalized)) return { kind: "wrong-code" };
  const unused = await database
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  for (const candidate of unused) {
    const [salt, stored] = candidate.codeHash.split(":");
    const computed = hashRecoveryCode(normalized, salt);
    if (
      stored.length === computed.length &&
      timingSafeEqual(Buffer.from(stored), Buffer.from(computed))
    ) {
      const [used] = await database
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(recoveryCodes.id, candidate.id), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return used ? { kind: "recovery-code" } : { kind: "wrong-code" };
    }
  }
  return { kind: "wrong-code" };
}

/** Recovery codes still unused (shown as a count in `Mon compte`). */
export async function unusedRecoveryCodes(userId: number, database: Database = db()) {
  const rows = await database
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}

/**
 * Removes `targetId`'s second factor (another Administrateur's reset, for a lost phone): key,
 * recovery codes and every session go; the account enrols again at its next sign-in if required.
 */
export async function resetSecondFactor(
  targetId: number,
  change: Journaled,
  database: Database = db(),
): Promise<{ kind: "reset" | "missing" }> {
  return database.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, targetId))
      .returning({ id: users.id });
    if (!row) return { kind: "missing" as const };
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, targetId));
    await tx.delete(sessions).where(eq(sessions.userId, targetId));
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "second-factor-reset",
      target: `compte ${targetId}`,
    });
    return { kind: "reset" as const };
  });
}

/**
 * At start: with TOTP_ENCRYPTION_KEY, encrypts the keys still stored in clear (set before it was);
 * without it, says in the log what that means. Returns how many keys were encrypted.
 */
export async function sealStoredTotpKeys(database: Database = db()): Promise<number> {
  const e = env();
  const stored = await database
    .select({ id: users.id, secret: users.totpSecret, pending: users.totpPendingSecret })
    .from(users)
    .where(or(isNotNull(users.totpSecret), isNotNull(users.totpPendingSecret)));
  const clear = stored.filter(
    (row) =>
      (row.secret !== null && !isSealed(row.secret)) ||
      (row.pending !== null && !isSealed(row.pending)),
  );
  const counts = { sealed: stored.length - clear.length, clear: clear.length };
  const settings = { key: e.TOTP_ENCRYPTION_KEY, siteUrl: e.SITE_URL };
  const what = { secrets: "second factor keys", unit: "accounts" };
  if (!canSealStored(what, counts, settings)) return 0;
  for (const row of clear) {
    const sealIfClear = (value: string | null) =>
      value !== null && !isSealed(value) ? sealKey(row.id, value) : value;
    await database
      .update(users)
      .set({ totpSecret: sealIfClear(row.secret), totpPendingSecret: sealIfClear(row.pending) })
      .where(
        and(
          eq(users.id, row.id),
          // Unchanged since read (an enrolment may have just sealed it).
          row.secret === null ? isNull(users.totpSecret) : eq(users.totpSecret, row.secret),
          row.pending === null
            ? isNull(users.totpPendingSecret)
            : eq(users.totpPendingSecret, row.pending),
        ),
      );
  }
  if (clear.length) log.info("second factor keys encrypted", { accounts: clear.length });
  return clear.length;
}
