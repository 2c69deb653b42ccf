import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { beforeEach, describe, expect, it } from "vitest";
import * as auth from "../../app/routes/admin/sign-in";
import * as dashboard from "../../app/routes/admin/dashboard";
import * as twoFactor from "../../app/routes/admin/two-factor";
import * as adminUsers from "../../app/routes/admin/users";
import { recoveryCodes, sessions, users } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

// The second factor (issue 20): enrolment in Mon compte, the code step of sign-in, recovery codes,
// another administrator's reset.

const { database, createAdmin, sessionCookieFor } = useAdminSuite();

type EnrolPage = { enrolled: false; qrCode: string; key: string };

/** The 6-digit code an authenticator app shows for `key` (as displayed, with spaces) at `time`. */
function codeFor(key: string, time = Date.now()) {
  const totp = new TOTP({
    secret: Secret.fromBase32(key.replace(/\s/g, "")),
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: time });
}

function cookieFrom(setCookie: string | null): string {
  const match = /(admin_session=[^;]*)/.exec(setCookie ?? "");
  if (!match) throw new Error(`no session cookie in ${setCookie}`);
  return match[1];
}

async function enrol(cookie: string) {
  const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
  const { key, qrCode } = page.data as EnrolPage;
  const done = await call(
    twoFactor.action,
    makeRequest("/admin/account/2fa", {
      cookie,
      form: { currentPassword: ADMIN.password, code: codeFor(key) },
    }),
  );
  return { key, qrCode, done };
}

async function passwordStep() {
  const outcome = await call(
    auth.action,
    makeRequest("/auth", {
      form: { email: ADMIN.email, password: ADMIN.password, redirectTo: "/admin/offers" },
    }),
  );
  return { outcome, cookie: cookieFrom(outcome.headers.get("set-cookie")) };
}

async function codeStep(cookie: string, code: string) {
  return call(
    auth.action,
    makeRequest("/auth", { cookie, form: { intent: "code", code, redirectTo: "/admin/offers" } }),
    testContext,
  );
}

describe(`second factor (${testDatabaseKind})`, () => {
  let adminId: number;
  let cookie: string;
  beforeEach(async () => {
    adminId = (await createAdmin()).id;
    cookie = await sessionCookieFor(adminId);
  });

  it("enrols with a QR code and the key, then shows 10 recovery codes once, stored hashed", async () => {
    const first = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    const page = first.data as EnrolPage;
    expect(page.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(page.qrCode.split(",")[1], "base64").toString()).toContain("<svg");
    expect(page.key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4})+$/);
    // The same key until it is confirmed (reloading the page does not change it).
    const again = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    expect((again.data as EnrolPage).key).toBe(page.key);

    const wrong = await call(
      twoFactor.action,
      makeRequest("/admin/account/2fa", {
        cookie,
        form: {
          currentPassword: ADMIN.password,
          code: "000000" === codeFor(page.key) ? "111111" : "000000",
        },
      }),
    );
    expect(wrong.status).toBe(400);
    const [before] = await database.db.select().from(users).where(eq(users.id, adminId));
    expect(before.totpEnabledAt).toBeNull();

    const { done } = await enrol(cookie);
    expect(done.status).toBe(200);
    const codes = (done.data as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    const stored = await database.db.select().from(recoveryCodes);
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      for (const code of codes) expect(row.codeHash).not.toContain(code.replace(/-/g, ""));
    }
    const [after] = await database.db.select().from(users).where(eq(users.id, adminId));
    expect(after.totpSecret).toBe(page.key.replace(/\s/g, ""));
    expect(after.totpPendingSecret).toBeNull();
    // Shown once: the page now only says it is on.
    const later = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    expect(later.data).toMatchObject({ enrolled: true });
    expect(JSON.stringify(later.data)).not.toContain(codes[0]);
  });

  it("asks the code after the password; the pending step opens nothing; a code works once", async () => {
    const { key } = await enrol(cookie);
    const { outcome, cookie: pending } = await passwordStep();
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/auth?redirectTo=%2Fadmin%2Foffers");
    expect(outcome.headers.get("set-cookie")).toMatch(/Max-Age=300/);
    expect(outcome.headers.get("set-cookie")).not.toContain("flash=signedIn");
    // Password alone: the admin area stays closed, /auth shows the code step.
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie: pending }))).status).toBe(
      302,
    );
    const step = await call(
      auth.loader,
      makeRequest("/auth?redirectTo=%2Fadmin%2Foffers", { cookie: pending }),
    );
    expect(step.data).toMatchObject({ step: "code" });

    expect((await codeStep(pending, "")).status).toBe(400);
    const wrongCode = codeFor(key, Date.now() - 10 * 60_000);
    const refused = await codeStep(pending, wrongCode);
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.data)).toContain("Code incorrect");

    // The next time step's code: enrolment used the current one.
    const code = codeFor(key, Date.now() + 30_000);
    const signedIn = await codeStep(pending, code);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/admin/offers");
    const full = cookieFrom(signedIn.headers.get("set-cookie"));
    expect(full).not.toBe(pending);
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie: full }))).status).toBe(
      200,
    );
    // The pending token is spent; the same code cannot be replayed.
    expect((await codeStep(pending, code)).status).toBe(401);
    const second = await passwordStep();
    expect((await codeStep(second.cookie, code)).status).toBe(401);
  });

  it("accepts each recovery code once", async () => {
    const { done } = await enrol(cookie);
    const [code] = (done.data as { recoveryCodes: string[] }).recoveryCodes;
    const first = await passwordStep();
    const used = await codeStep(first.cookie, code.toLowerCase().replace(/-/g, " "));
    expect(used.status).toBe(302);
    const second = await passwordStep();
    expect((await codeStep(second.cookie, code)).status).toBe(401);
    const left = await database.db.select().from(recoveryCodes);
    expect(left.filter((r) => r.usedAt !== null)).toHaveLength(1);
  });

  it("limits the codes tried per account", async () => {
    await enrol(cookie);
    const { cookie: pending } = await passwordStep();
    for (let i = 0; i < 5; i++)
      expect((await codeStep(pending, "AAAA-AAAA-AAAA-AAAA")).status).toBe(401);
    expect((await codeStep(pending, "AAAA-AAAA-AAAA-AAAA")).status).toBe(429);
  });

  it("lets another administrator reset it: the key, the codes and the sessions go", async () => {
    await enrol(cookie);
    const other = await createAdmin({
      email: "second@example.fr",
      password: "un autre mot de passe solide",
    });
    const theirs = await sessionCookieFor(other.id);
    const reset = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie: theirs,
        form: { intent: "reset-2fa", id: String(adminId) },
      }),
    );
    expect(reset.status).toBe(302);
    expect(reset.headers.get("set-cookie")).toContain("flash=secondFactorReset");
    const [row] = await database.db.select().from(users).where(eq(users.id, adminId));
    expect(row.totpSecret).toBeNull();
    expect(row.totpEnabledAt).toBeNull();
    expect(await database.db.select().from(recoveryCodes)).toHaveLength(0);
    expect(
      await database.db.select().from(sessions).where(eq(sessions.userId, adminId)),
    ).toHaveLength(0);
    // Signing in is one step again.
    expect((await passwordStep()).outcome.location).toBe("/admin/offers");
  });
});
