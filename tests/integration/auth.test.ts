import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as root from "../../app/root";
import * as adminLogout from "../../app/routes/admin/logout";
import * as auth from "../../app/routes/admin/sign-in";
import * as dashboard from "../../app/routes/admin/dashboard";
import { SIGN_IN_LIMITS } from "../../app/features/accounts/auth.server";
import { signIn, signInRateLimitKeys } from "../../app/features/accounts/sign-in.server";
import { hitRateLimit, peekRateLimit } from "../../app/platform/rate-limit.server";
import { sessions, users } from "../../app/platform/schema.server";
import { hashSessionToken } from "../../app/features/accounts/sessions.server";
import { ensureInitialAdmin, upsertAdmin } from "../../app/features/accounts/users.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

const { database, createAdmin, sessionCookieFor } = useAdminSuite();

function signInRequest(
  form: Record<string, string>,
  options: { cookie?: string; base?: string; ip?: string } = {},
) {
  return call(
    auth.action,
    makeRequest("/auth", { form, cookie: options.cookie, base: options.base }),
    { ...testContext, clientIp: options.ip ?? testContext.clientIp },
  );
}

function tokenFrom(setCookie: string | null): string {
  const match = /admin_session=([^;]*)/.exec(setCookie ?? "");
  if (!match) throw new Error(`no session cookie in ${setCookie}`);
  return match[1];
}

describe(`sign-in, sessions and sign-out (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    await createAdmin();
  });

  it("signs in with argon2id, a hashed random token and a safe cookie", async () => {
    const [user] = await database.db.select().from(users);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const outcome = await signInRequest({
      email: "  Admin@Example.FR ",
      password: ADMIN.password,
      redirectTo: "/admin/offers?edit=2",
    });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/admin/offers?edit=2");
    const setCookie = outcome.headers.get("set-cookie")!;
    expect(setCookie).toContain("flash=signedIn");
    expect(setCookie).toMatch(
      /admin_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax/,
    );
    expect(setCookie).not.toContain("Secure");
    const token = tokenFrom(setCookie);
    const [row] = await database.db.select().from(sessions);
    expect(row.idHash).toBe(hashSessionToken(token));
    expect(row.idHash).not.toContain(token);
    // SESSION_MAX_HOURS (12 by default) from sign-in.
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(12 * 3_600_000);
    // The session opens the admin area.
    const page = await call(
      dashboard.loader,
      makeRequest("/admin", { cookie: `admin_session=${token}` }),
    );
    expect(page.status).toBe(200);
  });

  it("marks the cookie Secure when the request is HTTPS", async () => {
    const outcome = await signInRequest(
      { email: ADMIN.email, password: ADMIN.password },
      { base: "https://shop.example.fr" },
    );
    expect(outcome.headers.get("set-cookie")).toMatch(/__Host-admin_session=[^;]+;.*; Secure/);
    expect(outcome.location).toBe("/admin");
  });

  it("never redirects outside the admin area", async () => {
    for (const redirectTo of [
      "https://evil.example/admin",
      "//evil.example",
      "/offers",
      "/\\evil",
    ]) {
      const outcome = await signInRequest({
        email: ADMIN.email,
        password: ADMIN.password,
        redirectTo,
      });
      expect(outcome.location, redirectTo).toBe("/admin");
    }
  });

  it("gives a new session id at each sign-in and ends the previous one", async () => {
    const first = tokenFrom(
      (await signInRequest({ email: ADMIN.email, password: ADMIN.password })).headers.get(
        "set-cookie",
      ),
    );
    const second = tokenFrom(
      (
        await signInRequest(
          { email: ADMIN.email, password: ADMIN.password },
          { cookie: `admin_session=${first}` },
        )
      ).headers.get("set-cookie"),
    );
    expect(second).not.toBe(first);
    const rows = await database.db.select().from(sessions);
    expect(rows.map((r) => r.idHash)).toEqual([hashSessionToken(second)]);
  });

  it("answers a wrong password and an unknown e-mail the same way, at the same cost", async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const outcome = await signInRequest({ email, password: "not the password" });
      return { outcome, ms: performance.now() - started };
    };
    await timed("warm-up@example.fr");
    // The fastest of three runs each: robust to a busy machine.
    const wrongRuns = [
      await timed(ADMIN.email),
      await timed(ADMIN.email),
      await timed(ADMIN.email),
    ];
    const unknownRuns = [1, 2, 3].map((i) => `nobody-${i}@example.fr`);
    const unknownTimed = [];
    for (const email of unknownRuns) unknownTimed.push(await timed(email));
    const wrong = wrongRuns[0].outcome;
    const unknown = unknownTimed[0].outcome;
    const wrongMs = Math.min(...wrongRuns.map((r) => r.ms));
    const unknownMs = Math.min(...unknownTimed.map((r) => r.ms));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.data).toEqual({
      ...(wrong.data as object),
      values: { email: "nobody-1@example.fr" },
    });
    expect(wrong.data).toMatchObject({
      error: "Erreur de connexion",
      description: "Email ou mot de passe incorrect.",
    });
    expect(wrong.headers.get("set-cookie")).toBeNull();
    // An unknown e-mail still pays for an argon2 verification (without it: a twentieth of the time).
    expect(unknownMs).toBeGreaterThan(wrongMs * 0.3);
    expect(await database.db.select().from(sessions)).toHaveLength(0);
  });

  it("refuses missing or malformed credentials with 400", async () => {
    const forms: Record<string, string>[] = [
      {},
      { email: "", password: "x" },
      { email: ADMIN.email, password: "" },
      { email: "a\u0000@example.fr", password: "x" },
      { email: ADMIN.email, password: "x".repeat(10_000) },
    ];
    for (const form of forms) {
      const outcome = await signInRequest(form);
      expect(outcome.status, JSON.stringify(form).slice(0, 60)).toBe(400);
    }
  });

  it("rate-limits repeated failures per e-mail and address with 429 and a French message", async () => {
    const { limit } = SIGN_IN_LIMITS.perAccountAndIp;
    for (let i = 0; i < limit; i++) {
      expect((await signInRequest({ email: ADMIN.email, password: `wrong ${i}` })).status).toBe(
        401,
      );
    }
    const blocked = await signInRequest({ email: ADMIN.email, password: ADMIN.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.data).toMatchObject({
      description: expect.stringMatching(
        /^Trop de tentatives de connexion\. Veuillez réessayer dans \d+ minutes?\.$/,
      ),
    });
    expect(await database.db.select().from(sessions)).toHaveLength(0);
    // Case and spaces do not make another e-mail; another address from another IP is not affected.
    expect(
      (await signInRequest({ email: " ADMIN@example.fr", password: ADMIN.password })).status,
    ).toBe(429);
    await upsertAdmin({ email: "other@example.fr", password: ADMIN.password }, database.db);
    expect(
      (
        await signInRequest(
          { email: "other@example.fr", password: ADMIN.password },
          { ip: "198.51.100.1" },
        )
      ).status,
    ).toBe(302);
  });

  it("rate-limits per IP address", async () => {
    const keys = signInRateLimitKeys("whoever@example.fr", "192.0.2.9");
    for (let i = 0; i < SIGN_IN_LIMITS.perIp.limit; i++) {
      await hitRateLimit(
        keys.ip,
        SIGN_IN_LIMITS.perIp.limit,
        SIGN_IN_LIMITS.perIp.windowMs,
        database.db,
      );
    }
    const blocked = await signInRequest(
      { email: ADMIN.email, password: ADMIN.password },
      { ip: "192.0.2.9" },
    );
    expect(blocked.status).toBe(429);
    const elsewhere = await signInRequest(
      { email: ADMIN.email, password: ADMIN.password },
      { ip: "192.0.2.10" },
    );
    expect(elsewhere.status).toBe(302);
  });

  it("never counts successful sign-ins against the address", async () => {
    const ip = "192.0.2.20";
    for (let i = 0; i < SIGN_IN_LIMITS.perIp.limit + 3; i++) {
      const answer = await signInRequest({ email: ADMIN.email, password: ADMIN.password }, { ip });
      expect(answer.status).toBe(302);
    }
    const keys = signInRateLimitKeys(ADMIN.email, ip);
    expect((await peekRateLimit(keys.ip, database.db)).count).toBe(0);
    // Failures still count.
    await signInRequest({ email: ADMIN.email, password: "wrong" }, { ip });
    expect((await peekRateLimit(keys.ip, database.db)).count).toBe(1);
  });

  it("clears the address's failure count after a success; the account keeps its failures for the hour", async () => {
    await signInRequest({ email: ADMIN.email, password: "wrong" });
    const keys = signInRateLimitKeys(ADMIN.email, testContext.clientIp);
    expect((await peekRateLimit(keys.accountAndIp, database.db)).count).toBe(1);
    expect((await peekRateLimit(keys.account, database.db)).count).toBe(1);
    await signInRequest({ email: ADMIN.email, password: ADMIN.password });
    expect((await peekRateLimit(keys.accountAndIp, database.db)).count).toBe(0);
    // The right password gave its own attempt back, not the guesser's (ASVS 2.2.1: 100 an hour).
    expect((await peekRateLimit(keys.account, database.db)).count).toBe(1);
  });

  it("never lets failures from one address refuse the right password from another", async () => {
    // The lockout: someone keeps guessing the owner's e-mail from one address.
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndIp.limit; i++) {
      const wrong = await signInRequest(
        { email: ADMIN.email, password: `faux ${i}` },
        { ip: "192.0.2.66" },
      );
      expect(wrong.status).toBe(401);
    }
    const stillGuessing = await signInRequest(
      { email: ADMIN.email, password: "encore faux" },
      { ip: "192.0.2.66" },
    );
    expect(stillGuessing.status).toBe(429);
    const owner = await signInRequest(
      { email: ADMIN.email, password: ADMIN.password },
      { ip: "198.51.100.20" },
    );
    expect(owner.status).toBe(302);
  });

  it("slows an account's sign-ins down after failures from many addresses, never refusing", async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    for (let i = 0; i < 8; i++) {
      const result = await signIn(
        { email: ADMIN.email, password: `faux ${i}` },
        `203.0.113.${100 + i}`,
        { wait },
        database.db,
      );
      expect(result.kind).toBe("invalid");
    }
    expect(waits).toEqual([1000, 2000, 4000]);
    const owner = await signIn(
      { email: ADMIN.email, password: ADMIN.password },
      "198.51.100.30",
      { wait },
      database.db,
    );
    expect(owner.kind).toBe("signed-in");
    expect(waits.at(-1)).toBe(8000);
  });

  it("sends a signed-in user from /auth to the admin area", async () => {
    const [user] = await database.db.select().from(users);
    const cookie = await sessionCookieFor(user.id);
    const signedIn = await call(
      auth.loader,
      makeRequest("/auth?redirectTo=%2Fadmin%2Fcontacts", { cookie }),
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/admin/contacts");
    const evil = await call(
      auth.loader,
      makeRequest("/auth?redirectTo=https://evil.example", { cookie }),
    );
    expect(evil.location).toBe("/admin");
    const anonymous = await call(auth.loader, makeRequest("/auth?redirectTo=//evil"));
    expect(anonymous.data).toEqual({ redirectTo: "/admin", step: "password" });
  });

  it("signs out: the session is deleted server-side, the cookie cleared, back to / with a toast", async () => {
    const [user] = await database.db.select().from(users);
    const cookie = await sessionCookieFor(user.id);
    const other = await sessionCookieFor(user.id);
    const outcome = await call(
      adminLogout.action,
      makeRequest("/admin/logout", { cookie, form: {} }),
    );
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/");
    const setCookie = outcome.headers.get("set-cookie")!;
    expect(setCookie).toContain("flash=signedOut");
    expect(setCookie).toMatch(/admin_session=; Max-Age=0; Path=\//);
    // Only this session ended; the cookie no longer opens anything.
    expect(await database.db.select().from(sessions)).toHaveLength(1);
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie }))).status).toBe(302);
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie: other }))).status).toBe(
      200,
    );
  });

  it("resetting a password with admin:create ends the user's sessions", async () => {
    const [user] = await database.db.select().from(users);
    const cookie = await sessionCookieFor(user.id);
    const { created } = await upsertAdmin(
      { email: ADMIN.email, password: "a brand new password" },
      database.db,
    );
    expect(created).toBe(false);
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie }))).status).toBe(302);
    expect((await signInRequest({ email: ADMIN.email, password: ADMIN.password })).status).toBe(
      401,
    );
    expect(
      (await signInRequest({ email: ADMIN.email, password: "a brand new password" })).status,
    ).toBe(302);
  });

  it("shows a flash message once: the root loader reads it and clears the cookie", async () => {
    const withFlash = await call(root.loader, makeRequest("/", { cookie: "flash=signedOut" }));
    expect(withFlash.data).toMatchObject({
      toast: { title: "Déconnexion réussie", description: "À bientôt !", type: "success" },
    });
    expect(withFlash.headers.get("set-cookie")).toMatch(/^flash=; Max-Age=0; Path=\//);
    expect(withFlash.headers.get("cache-control")).toBe("private, no-store");
    // The cookie names a message, it never carries text: anything else is dropped.
    const forged = await call(root.loader, makeRequest("/", { cookie: "flash=%3Cscript%3E" }));
    expect(forged.data).toMatchObject({ toast: null });
    expect(forged.headers.get("set-cookie")).toMatch(/^flash=;/);
    const none = await call(root.loader, makeRequest("/"));
    expect(none.data).toMatchObject({ toast: null });
  });
});

describe(`first administrator (${testDatabaseKind})`, () => {
  it("is created once from ADMIN_EMAIL/ADMIN_PASSWORD, then never again", async () => {
    const first = await ensureInitialAdmin(
      { email: "Boss@Example.fr", password: "env password 123", defaultEmail: "admin@example.fr" },
      database.db,
    );
    expect(first).toEqual({ email: "boss@example.fr", generatedPassword: undefined });
    const again = await ensureInitialAdmin(
      { email: "other@example.fr", password: "env password 456", defaultEmail: "admin@example.fr" },
      database.db,
    );
    expect(again).toBeNull();
    expect((await database.db.select().from(users)).map((u) => u.email)).toEqual([
      "boss@example.fr",
    ]);
  });

  it("gets a generated password when ADMIN_PASSWORD is not set", async () => {
    const created = await ensureInitialAdmin({ defaultEmail: "admin@example.fr" }, database.db);
    expect(created?.email).toBe("admin@example.fr");
    expect(created?.generatedPassword?.length).toBeGreaterThanOrEqual(20);
    const outcome = await signInRequest({
      email: "admin@example.fr",
      password: created!.generatedPassword!,
    });
    expect(outcome.status).toBe(302);
  });

  it("is created once when instances start together", async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        database.withStartupLock((lockedDb) =>
          ensureInitialAdmin(
            {
              email: "admin@example.fr",
              password: "env password 123",
              defaultEmail: "x@example.fr",
            },
            lockedDb,
          ),
        ),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(
      await database.db.select().from(users).where(eq(users.email, "admin@example.fr")),
    ).toHaveLength(1);
  });

  it("refuses a short ADMIN_PASSWORD with a clear message", async () => {
    await expect(
      ensureInitialAdmin(
        { email: "a@example.fr", password: "short", defaultEmail: "x@example.fr" },
        database.db,
      ),
    ).rejects.toThrow("ADMIN_PASSWORD : Le mot de passe doit contenir au moins 12 caractères.");
    expect(await database.db.select().from(users)).toHaveLength(0);
  });
});
