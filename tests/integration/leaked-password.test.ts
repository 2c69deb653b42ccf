import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, describe, expect, it } from "vitest";
import * as auth from "../../app/routes/admin/sign-in";
import * as twoFactor from "../../app/routes/admin/two-factor";
import * as adminUsers from "../../app/routes/admin/users";
import { SIGN_IN_LIMITS } from "../../app/features/accounts/auth.server";
import {
  SECOND_FACTOR_LIMITS,
  signInRateLimitKeys,
} from "../../app/features/accounts/sign-in.server";
import {
  KNOWN_DEVICE_COOKIE,
  knownDeviceCookie,
  verifyKnownDevice,
} from "../../app/features/accounts/known-device.server";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import {
  HASHING_LIMITS,
  HashingBusyError,
  hashPassword,
  verifyPassword,
} from "../../app/features/accounts/password.server";
import { peekRateLimit } from "../../app/platform/rate-limit.server";
import {
  auditJournal,
  mailOutbox,
  rateLimits,
  sessions,
  users,
} from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";

// Issue 28, "a leaked password locks the owner out": someone who has the password cannot keep
// the owner out of their usual browser (known device), wrong codes after the right password mail
// the account once per episode, failed passwords are capped per account from unknown browsers,
// and a flood of sign-ins gets 503 rather than every core.

const { database, createAdmin, sessionCookieFor } = useAdminSuite();

const OWNER_IP = "203.0.113.50";
/** Never a valid recovery code (and not a 6-digit code): a wrong code that costs no time step. */
const WRONG = "AAAA-AAAA-AAAA-AAAA";

const codeFor = (key: string, time: number) =>
  new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: time });

function cookieValue(setCookie: string | null, name: string): string {
  const match = new RegExp(`(?:^|[ ,])${name}=([^;]*)`).exec(setCookie ?? "");
  if (!match) throw new Error(`no ${name} cookie in ${setCookie}`);
  return match[1];
}

const cookies = (session?: string, device?: string) =>
  [session ? `admin_session=${session}` : null, device ? `${KNOWN_DEVICE_COOKIE}=${device}` : null]
    .filter(Boolean)
    .join("; ");

/** The owner enrols from their browser: the page's key, and the known-device cookie it got. */
async function enrolOwner() {
  const owner = await createAdmin();
  const cookie = await sessionCookieFor(owner.id);
  const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
  const key = (page.data as { key: string }).key.replace(/\s/g, "");
  const done = await call(
    twoFactor.action,
    makeRequest("/admin/account/2fa", {
      cookie,
      form: { currentPassword: ADMIN.password, code: codeFor(key, Date.now()) },
    }),
  );
  expect(done.status).toBe(200);
  return { owner, key, device: cookieValue(done.headers.get("set-cookie"), KNOWN_DEVICE_COOKIE) };
}

/** The password step of /auth from `ip`: the pending session's token (or the answer). */
async function passwordStep(ip: string, device?: string, password = ADMIN.password) {
  const outcome = await call(
    auth.action,
    makeRequest("/auth", {
      form: { email: ADMIN.email, password },
      cookie: cookies(undefined, device),
    }),
    { ...testContext, clientIp: ip },
  );
  const pending = /admin_session=([^;]+)/.exec(outcome.headers.get("set-cookie") ?? "")?.[1];
  return { outcome, pending };
}

function codeStep(pending: string | undefined, code: string, ip: string, device?: string) {
  return call(
    auth.action,
    makeRequest("/auth", { form: { intent: "code", code }, cookie: cookies(pending, device) }),
    { ...testContext, clientIp: ip },
  );
}

const alerts = () =>
  database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "second_factor_alert"));
const journaled = (action: string) =>
  database.db.select().from(auditJournal).where(eq(auditJournal.action, action));

describe(`sign-in under a leaked password (${testDatabaseKind})`, () => {
  let smtp: TestSmtpServer | undefined;
  let worker: MailWorker | undefined;
  afterAll(async () => {
    await worker?.stop();
    await smtp?.stop();
  });

  it("lets the owner in from their known browser after 20 wrong codes from other addresses", async () => {
    const { key, device } = await enrolOwner();
    const statuses: number[] = [];
    for (let address = 0; address < 4; address++) {
      const ip = `192.0.2.${10 + address}`;
      const { pending } = await passwordStep(ip);
      for (let i = 0; i < 5; i++) statuses.push((await codeStep(pending, WRONG, ip)).status);
    }
    // Per account from unknown browsers: 10 codes checked, then 429 whatever the address.
    const { limit } = SECOND_FACTOR_LIMITS.perAccount;
    expect(statuses).toEqual([...Array(limit).fill(401), ...Array(20 - limit).fill(429)]);
    // A browser the account does not know is refused, even with the right code.
    const stranger = await passwordStep("198.51.100.77");
    const refused = await codeStep(
      stranger.pending,
      codeFor(key, Date.now() + 30_000),
      "198.51.100.77",
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    // The owner's browser has its own allowance: password, then the right code.
    const { outcome, pending } = await passwordStep(OWNER_IP, device);
    expect(outcome.status).toBe(302);
    const signedIn = await codeStep(pending, codeFor(key, Date.now() + 30_000), OWNER_IP, device);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/admin");
    // The cookie is renewed for 30 days, for the same device, HttpOnly and SameSite=Lax.
    const setCookie = signedIn.headers.get("set-cookie")!;
    expect(setCookie).toMatch(
      new RegExp(`${KNOWN_DEVICE_COOKIE}=[^;]+; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax`),
    );
    const renewed = cookieValue(setCookie, KNOWN_DEVICE_COOKIE);
    expect(renewed.split(".")[2]).toBe(device.split(".")[2]);
    expect((await journaled("sign-in")).length).toBe(1);
  });

  it("mails the account once per episode after 5 wrong codes that follow the right password, and journals it", async () => {
    const { owner } = await enrolOwner();
    const first = await passwordStep("192.0.2.20");
    const { after } = SECOND_FACTOR_LIMITS.alert;
    for (let i = 1; i <= after; i++) {
      expect((await codeStep(first.pending, WRONG, "192.0.2.20")).status).toBe(401);
      expect(await alerts()).toHaveLength(i < after ? 0 : 1);
    }
    const second = await passwordStep("192.0.2.21");
    for (let i = 0; i < 3; i++) await codeStep(second.pending, WRONG, "192.0.2.21");
    const [alert] = await alerts();
    expect(await alerts()).toHaveLength(1);
    expect(alert).toMatchObject({ userId: owner.id, status: "pending", contactRequestId: null });
    const [entry] = await journaled("second-factor-alert");
    expect(entry).toMatchObject({ actorId: owner.id, actorEmail: ADMIN.email, ip: "192.0.2.20" });
    expect(await journaled("second-factor-alert")).toHaveLength(1);

    // The worker renders it when it sends it, to a real SMTP server on loopback.
    smtp = await startTestSmtpServer();
    worker = startMailWorker(
      database,
      {
        smtpUrl: smtp.url,
        to: ["ventes@example.fr"],
        from: { name: "ServeurPro", address: "site@example.fr" },
        retryMaxSeconds: 1,
        baseUrl: "https://www.example.fr",
        pricing: { vatRate: 20, display: "ht" },
      },
      mailRenderers,
      { pollMs: 200 },
    );
    const [mail] = await smtp.waitForMails(1);
    expect(mail.envelope.to).toEqual([ADMIN.email]);
    expect(mail.parsed.subject).toBe(
      "Alerte de sécurité : votre mot de passe est utilisé par quelqu'un d'autre",
    );
    const text = mail.parsed.text ?? "";
    expect(text).toContain("codes de double authentification erronés");
    expect(text).toContain("https://www.example.fr/admin/account");
    expect(text).toContain(
      "« Mot de passe oublié ? » : https://www.example.fr/auth/mot-de-passe-oublie",
    );
    // Nothing of who tried: no address.
    expect(mail.raw).not.toContain("192.0.2.2");
    await worker.stop();
    worker = undefined;
  });

  it("caps failed passwords at 100 an hour per account from unknown browsers; a known browser keeps its own count", async () => {
    const { device } = await enrolOwner();
    const keys = signInRateLimitKeys(ADMIN.email, "192.0.2.30");
    // 100 failures this hour, from as many addresses (written as the counter would hold them).
    await database.db.insert(rateLimits).values({
      key: keys.account,
      count: SIGN_IN_LIMITS.perAccount.limit,
      resetAt: sql`now() + interval '50 minutes'`,
    });
    const guess = await passwordStep("192.0.2.30", undefined, "encore une devinette");
    expect(guess.outcome.status).toBe(429);
    expect(Number(guess.outcome.headers.get("retry-after"))).toBeGreaterThan(2900);
    expect(guess.outcome.data).toMatchObject({
      description: expect.stringMatching(/^Trop de tentatives de connexion\./),
    });
    // Refused before the password is checked: even the right one, from a browser it does not know.
    expect((await passwordStep("192.0.2.31")).outcome.status).toBe(429);

    // The owner's browser: neither refused nor slowed down, and its failures are its own.
    const typo = await passwordStep(OWNER_IP, device, "une faute de frappe");
    expect(typo.outcome.status).toBe(401);
    expect((await peekRateLimit(keys.account, database.db)).count).toBe(100);
    const ownerKeys = signInRateLimitKeys(ADMIN.email, OWNER_IP);
    expect((await peekRateLimit(ownerKeys.accountAndIp, database.db)).count).toBe(0);
    const deviceId = device.split(".")[2];
    expect((await peekRateLimit(keys.knownDevice(deviceId), database.db)).count).toBe(1);
    const { outcome } = await passwordStep(OWNER_IP, device);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/auth?redirectTo=%2Fadmin");
  });

  it("knows a device only for its account, unaltered, and forgets them when the second factor is reset", async () => {
    const { owner, device } = await enrolOwner();
    const [row] = await database.db.select().from(users).where(eq(users.id, owner.id));
    expect(await verifyKnownDevice(device, row, database.db)).toEqual({
      deviceId: device.split(".")[2],
    });
    const other = await createAdmin({
      email: "autre@example.fr",
      password: "un autre mot de passe",
    });
    const [otherRow] = await database.db.select().from(users).where(eq(users.id, other.id));
    expect(
      await verifyKnownDevice(
        device,
        { ...otherRow, totpEnabledAt: row.totpEnabledAt },
        database.db,
      ),
    ).toBeNull();
    const [, , id, issued, mac] = device.split(".");
    const forged = `v1.${other.id}.${id}.${issued}.${mac}`;
    expect(
      await verifyKnownDevice(
        forged,
        { ...otherRow, totpEnabledAt: row.totpEnabledAt },
        database.db,
      ),
    ).toBeNull();
    const tampered = device.slice(0, -2) + (device.endsWith("AA") ? "BB" : "AA");
    expect(await verifyKnownDevice(tampered, row, database.db)).toBeNull();
    expect(await verifyKnownDevice("n'importe quoi", row, database.db)).toBeNull();
    // Behind HTTPS: the __Host- name, Secure.
    expect(knownDeviceCookie(new Request("https://shop.example.fr/auth"), device)).toBe(
      `__Host-${KNOWN_DEVICE_COOKIE}=${device}; Max-Age=2592000; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );

    // Another administrator resets the owner's second factor (lost phone): the device is forgotten.
    const admin = await createAdmin({
      email: "chef@example.fr",
      password: "le mot de passe du chef",
    });
    const reset = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie: await sessionCookieFor(admin.id),
        form: { intent: "reset-2fa", id: String(owner.id) },
      }),
    );
    expect(reset.status).toBe(302);
    const [after] = await database.db.select().from(users).where(eq(users.id, owner.id));
    expect(await verifyKnownDevice(device, after, database.db)).toBeNull();
  });

  it("asks the password again to enrol, and ends the account's other sessions once enabled", async () => {
    const owner = await createAdmin();
    const cookie = await sessionCookieFor(owner.id);
    const elsewhere = await sessionCookieFor(owner.id);
    const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    const key = (page.data as { key: string }).key.replace(/\s/g, "");
    const enrol = (form: Record<string, string>) =>
      call(twoFactor.action, makeRequest("/admin/account/2fa", { cookie, form }));
    const missing = await enrol({ code: codeFor(key, Date.now()) });
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({
      fieldErrors: { currentPassword: "Saisissez votre mot de passe actuel." },
    });
    const wrong = await enrol({ currentPassword: "pas le bon", code: codeFor(key, Date.now()) });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      description: "Le mot de passe actuel est incorrect.",
      fieldErrors: { currentPassword: "Le mot de passe actuel est incorrect." },
    });
    const [before] = await database.db.select().from(users).where(eq(users.id, owner.id));
    expect(before.totpEnabledAt).toBeNull();
    expect(await database.db.select().from(sessions)).toHaveLength(2);

    const done = await enrol({ currentPassword: ADMIN.password, code: codeFor(key, Date.now()) });
    expect(done.status).toBe(200);
    const left = await database.db.select().from(sessions).where(eq(sessions.userId, owner.id));
    expect(left.map((s) => s.idHash)).toHaveLength(1);
    const mine = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    expect(mine.data).toMatchObject({ enrolled: true });
    const theirs = await call(
      twoFactor.loader,
      makeRequest("/admin/account/2fa", { cookie: elsewhere }),
    );
    expect(theirs.status).toBe(302);
    expect(await journaled("second-factor-enabled")).toHaveLength(1);
  });

  it("answers a flood of sign-ins from unknown browsers with 503 and Retry-After once the hashing line is full", async () => {
    await createAdmin();
    // Every slot taken and the line full (what 10 concurrent sign-ins do): the next is refused.
    const { concurrency, maxQueued } = HASHING_LIMITS;
    const busy = Array.from({ length: concurrency + maxQueued }, (_, i) =>
      hashPassword(`remplissage ${i}`),
    );
    await expect(verifyPassword(busy.length.toString(), "x")).rejects.toBeInstanceOf(
      HashingBusyError,
    );
    const flooded = await passwordStep("192.0.2.40");
    expect(flooded.outcome.status).toBe(503);
    expect(flooded.outcome.headers.get("retry-after")).toBe(
      String(HASHING_LIMITS.retryAfterSeconds),
    );
    expect(flooded.outcome.data).toMatchObject({
      error: "Erreur de connexion",
      description: expect.stringMatching(/très sollicité/),
    });
    // Nothing was read or counted for it.
    expect(await database.db.select().from(rateLimits)).toHaveLength(0);
    // A signed-in administrator's check waits its turn ahead of the line instead.
    const [row] = await database.db.select().from(users);
    const priority = verifyPassword(row.passwordHash, ADMIN.password, { priority: true });
    await Promise.all(busy);
    expect(await priority).toBe(true);
  });

  it("lets only a valid known-device cookie past a full hashing line, not one named like it", async () => {
    const { device } = await enrolOwner();
    const counted = (await database.db.select().from(rateLimits)).length;
    const { concurrency, maxQueued } = HASHING_LIMITS;
    const busy = Array.from({ length: concurrency + maxQueued }, (_, i) =>
      hashPassword(`remplissage ${i}`),
    );
    const forged = [
      "1",
      "v1.garbage",
      // Well-formed, with a MAC that is not the key's.
      device.slice(0, -2) + (device.endsWith("AA") ? "BB" : "AA"),
      // Well-formed for an account that does not exist.
      device.replace(/^v1\.\d+\./, "v1.999999."),
    ];
    for (const cookie of forged) {
      const flooded = await passwordStep("192.0.2.41", cookie);
      expect(flooded.outcome.status, cookie).toBe(503);
    }
    // Nothing was counted for them.
    expect(await database.db.select().from(rateLimits)).toHaveLength(counted);
    // The owner's browser waits in its own line and gets to the code step.
    const owner = await passwordStep(OWNER_IP, device);
    expect(owner.outcome.status).toBe(302);
    expect(owner.pending).toBeDefined();
    await Promise.all(busy);
  });
});
