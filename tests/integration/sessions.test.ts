import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as account from "../../app/routes/admin/account";
import * as auth from "../../app/routes/admin/sign-in";
import * as dashboard from "../../app/routes/admin/dashboard";
import { sessions } from "../../app/platform/schema.server";
import { hashSessionToken } from "../../app/features/accounts/sessions.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

// Sessions (issue 20): idle timeout, absolute lifetime, `__Host-` over HTTPS, the account's list
// with `Révoquer`. Defaults: SESSION_IDLE_MINUTES=30, SESSION_MAX_HOURS=12.

const { database, createAdmin, sessionCookieFor, snapshotFingerprint } = useAdminSuite();

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function signInFrom(options: { base?: string; userAgent?: string; ip?: string } = {}) {
  const request = makeRequest("/auth", {
    form: { email: ADMIN.email, password: ADMIN.password },
    base: options.base,
  });
  if (options.userAgent) request.headers.set("user-agent", options.userAgent);
  return call(auth.action, request, { ...testContext, clientIp: options.ip ?? "192.0.2.10" });
}

async function opens(cookie: string) {
  return (await call(dashboard.loader, makeRequest("/admin", { cookie }))).status === 200;
}

async function age(cookie: string, column: "last_seen_at" | "expires_at", interval: string) {
  const token = cookie.split("=")[1];
  await database.db.execute(
    sql`update sessions set ${sql.raw(column)} = now() - ${interval}::interval where id_hash = ${hashSessionToken(token)}`,
  );
}

describe(`sessions (${testDatabaseKind})`, () => {
  let adminId: number;
  beforeEach(async () => {
    adminId = (await createAdmin()).id;
  });

  it("records the browser and the address at sign-in", async () => {
    const outcome = await signInFrom({ userAgent: CHROME, ip: "198.51.100.7" });
    expect(outcome.status).toBe(302);
    const [row] = await database.db.select().from(sessions);
    expect(row.userAgent).toBe(CHROME);
    expect(row.ip).toBe("198.51.100.7");
  });

  it("ends a session idle for longer than SESSION_IDLE_MINUTES, and slides with activity", async () => {
    const cookie = await sessionCookieFor(adminId);
    await age(cookie, "last_seen_at", "29 minutes");
    expect(await opens(cookie)).toBe(true);
    // That request was activity: the idle clock starts again.
    const [row] = await database.db.select().from(sessions);
    expect(Date.now() - row.lastSeenAt.getTime()).toBeLessThan(60_000);

    await age(cookie, "last_seen_at", "31 minutes");
    expect(await opens(cookie)).toBe(false);
  });

  it("ends a session SESSION_MAX_HOURS after sign-in, however active", async () => {
    const cookie = await sessionCookieFor(adminId);
    await age(cookie, "expires_at", "1 second");
    expect(await opens(cookie)).toBe(false);
  });

  it("names the cookie __Host- over HTTPS and reads only that name there", async () => {
    const outcome = await signInFrom({ base: "https://shop.example.fr" });
    const setCookie = outcome.headers.get("set-cookie")!;
    expect(setCookie).toMatch(
      /__Host-admin_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );
    expect(setCookie).not.toContain("Domain");
    const token = /__Host-admin_session=([^;]+)/.exec(setCookie)![1];
    const secure = (cookie: string) =>
      call(dashboard.loader, makeRequest("/admin", { cookie, base: "https://shop.example.fr" }));
    expect((await secure(`__Host-admin_session=${token}`)).status).toBe(200);
    // A cookie without the prefix could have been set by a sibling domain: not read over HTTPS.
    expect((await secure(`admin_session=${token}`)).status).toBe(302);
  });

  it("lists the account's open sessions in Mon compte and revokes one", async () => {
    await signInFrom({ userAgent: CHROME, ip: "198.51.100.7" });
    const mine = await sessionCookieFor(adminId);
    const page = await call(account.loader, makeRequest("/admin/account", { cookie: mine }));
    const list = (page.data as Awaited<ReturnType<typeof account.loader>>).sessions;
    expect(list).toHaveLength(2);
    const other = list.find((s) => !s.current)!;
    expect(other).toMatchObject({ browser: "Chrome sur Linux", ip: "198.51.100.7" });
    expect(other.lastSeenAt).toBeInstanceOf(Date);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    // The hash of a session never reaches the page.
    const rows = await database.db.select().from(sessions);
    for (const row of rows) expect(JSON.stringify(page.data)).not.toContain(row.idHash);

    const revoked = await call(
      account.action,
      makeRequest("/admin/account", {
        cookie: mine,
        form: { intent: "revoke", id: String(other.id) },
      }),
    );
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("set-cookie")).toContain("flash=sessionRevoked");
    expect(await database.db.select().from(sessions)).toHaveLength(1);
    expect(await opens(mine)).toBe(true);
  });

  it("never revokes another account's session", async () => {
    const second = await createAdmin({
      email: "second@example.fr",
      password: "un autre mot de passe solide",
    });
    await sessionCookieFor(second.id);
    const [theirs] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, second.id));
    const mine = await sessionCookieFor(adminId);
    const before = await snapshotFingerprint();
    for (const id of [String(theirs.publicId), "abc", ""]) {
      const outcome = await call(
        account.action,
        makeRequest("/admin/account", { cookie: mine, form: { intent: "revoke", id } }),
      );
      expect(outcome.status, id).toBe(404);
    }
    expect(await snapshotFingerprint()).toEqual(before);
  });
});
