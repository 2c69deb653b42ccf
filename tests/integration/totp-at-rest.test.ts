import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it, vi } from "vitest";
import { users } from "../../app/platform/schema.server";
import {
  checkSecondFactor,
  confirmEnrolment,
  sealStoredTotpKeys,
  startEnrolment,
} from "../../app/features/accounts/two-factor.server";
import { testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

// The second factor's keys encrypted at rest with TOTP_ENCRYPTION_KEY: the server's own
// configuration is read once per test file, so the key is set before anything reads it.
vi.hoisted(() => {
  process.env.TOTP_ENCRYPTION_KEY = Buffer.from(
    Array.from({ length: 32 }, (_, i) => i * 7),
  ).toString("base64");
});

const { database, createAdmin } = useAdminSuite();

const codeFor = (key: string, time = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: time });

async function storedKeys(id: number) {
  const [row] = await database.db
    .select({ secret: users.totpSecret, pending: users.totpPendingSecret })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

/** Who enrols, for the journal entry written with the change. */
const enrolling = (user: { id: number; email: string }) => ({
  keepSession: "",
  context: testContext,
  actor: user,
});

describe("second factor keys at rest", () => {
  it("stores the key encrypted, never in clear, and signs in with the app's codes", async () => {
    const admin = await createAdmin();
    const { key } = await startEnrolment(admin, "ServeurPro", database.db);
    expect((await storedKeys(admin.id)).pending).toMatch(/^v1:/);
    expect((await storedKeys(admin.id)).pending).not.toContain(key);
    // The same key is shown again while enrolment is pending.
    expect((await startEnrolment(admin, "ServeurPro", database.db)).key).toBe(key);

    const done = await confirmEnrolment(admin.id, codeFor(key), enrolling(admin), database.db);
    expect(done.kind).toBe("enabled");
    const stored = await storedKeys(admin.id);
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(key);
    expect(stored.pending).toBeNull();
    const next = codeFor(key, Date.now() + 30_000);
    expect(await checkSecondFactor(admin.id, next, database.db)).toEqual({ kind: "totp" });
  });

  it("encrypts at start the keys stored in clear before the key was set", async () => {
    const admin = await createAdmin();
    const key = new Secret({ size: 20 }).base32;
    await database.db
      .update(users)
      .set({ totpSecret: key, totpEnabledAt: new Date() })
      .where(eq(users.id, admin.id));

    expect(await sealStoredTotpKeys(database.db)).toBe(1);
    expect((await storedKeys(admin.id)).secret).toMatch(/^v1:/);
    expect(await sealStoredTotpKeys(database.db)).toBe(0);
    expect(await checkSecondFactor(admin.id, codeFor(key), database.db)).toEqual({
      kind: "totp",
    });
  });

  it("an encrypted key copied onto another account gives it no second factor", async () => {
    const owner = await createAdmin();
    const other = await createAdmin({ email: "autre@example.fr", password: "Un-autre-Secret-42" });
    const { key } = await startEnrolment(owner, "ServeurPro", database.db);
    await confirmEnrolment(owner.id, codeFor(key), enrolling(owner), database.db);
    const { secret } = await storedKeys(owner.id);
    await database.db
      .update(users)
      .set({ totpSecret: secret, totpEnabledAt: new Date() })
      .where(eq(users.id, other.id));
    const code = codeFor(key, Date.now() + 30_000);
    expect(await checkSecondFactor(other.id, code, database.db)).toEqual({ kind: "wrong-code" });
    // Random bytes in its place read as no key either.
    await database.db
      .update(users)
      .set({ totpSecret: `v1:${randomBytes(40).toString("base64")}` })
      .where(eq(users.id, other.id));
    expect(await checkSecondFactor(other.id, code, database.db)).toEqual({ kind: "wrong-code" });
  });
});
