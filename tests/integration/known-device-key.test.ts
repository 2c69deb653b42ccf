import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import {
  forgetStoredDeviceKey,
  issueKnownDevice,
  verifyKnownDevice,
} from "../../app/features/accounts/known-device.server";
import { appState } from "../../app/platform/schema.server";
import { useTestDatabase } from "../support/use-test-database";

// The known-device cookie's key (issue 39): derived from TOTP_ENCRYPTION_KEY, so the database
// holds nothing that signs a cookie; the key an earlier version stored is deleted at start. The
// configuration is read once per file: the variable is set before anything reads it.
vi.hoisted(() => {
  process.env.TOTP_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString("base64");
});

const database = useTestDatabase({ truncate: true });
const account = { id: 42, totpEnabledAt: new Date("2026-01-01T00:00:00Z") };
const STORED_KEY = "known_device_key";

const mac = (key: Buffer, fields: string) =>
  createHmac("sha256", key)
    .update(`known-device:${fields}:${account.totpEnabledAt.getTime()}`)
    .digest("base64url");
const storedKey = () => database.db.select().from(appState).where(eq(appState.key, STORED_KEY));

describe("the known-device key", () => {
  it("is derived from TOTP_ENCRYPTION_KEY (HKDF-SHA256) and stored nowhere", async () => {
    const cookie = await issueKnownDevice(account, null, database.db);
    expect(await verifyKnownDevice(cookie, account, database.db)).toEqual({
      deviceId: cookie.split(".")[2],
    });
    expect(await storedKey()).toEqual([]);
    // What any instance holding the variable computes, with nothing read from the database.
    const key = Buffer.from(
      hkdfSync(
        "sha256",
        Buffer.alloc(32, 9),
        Buffer.alloc(0),
        "serveurpro known-device cookie v1",
        32,
      ),
    );
    const fields = cookie.slice(0, cookie.lastIndexOf("."));
    expect(cookie).toBe(`${fields}.${mac(key, fields)}`);
  });

  it("no longer knows the browsers of the key an earlier version stored, and deletes it at start", async () => {
    const old = randomBytes(32);
    await database.db.insert(appState).values({ key: STORED_KEY, value: old.toString("hex") });
    const issuedAt = Math.floor(Date.now() / 1000);
    const fields = `v1.${account.id}.${randomBytes(16).toString("base64url")}.${issuedAt}`;
    expect(
      await verifyKnownDevice(`${fields}.${mac(old, fields)}`, account, database.db),
    ).toBeNull();

    expect(await forgetStoredDeviceKey(database.db)).toBe(true);
    expect(await storedKey()).toEqual([]);
    expect(await forgetStoredDeviceKey(database.db)).toBe(false);
    const renewed = await issueKnownDevice(account, null, database.db);
    expect(await verifyKnownDevice(renewed, account, database.db)).not.toBeNull();
    expect(await storedKey()).toEqual([]);
  });
});
