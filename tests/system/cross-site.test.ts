import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactRequests, rateLimits, sessions } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { createAdmin, sessionCookieFor } from "../support/admin";
import { ADMIN_ACTIONS, ADMIN_CREDENTIALS } from "./hostile/admin-cases";
import { crossSiteCases, PUBLIC_ACTIONS, type HostileCase, type Vars } from "./hostile/cases";
import { loadVars, runCase } from "./hostile/run";
import { startAppServer, type AppServer } from "./harness/app-server";
import { send, urlencoded } from "./harness/http";

// A form posted by another site's page (foreign Origin, or cross-site fetch metadata) to any
// action changes nothing: 403 with a French message, no row written, no counter touched. This is
// the one cross-site check (http-server/cross-site.ts, in front of every action); route modules have
// none of their own, so it is tested here, on the built server, for every kind of action.
let app: AppServer;
let vars: Vars;
let cases: HostileCase[] = [];
let adminHeaders: [string, string][];
let adminId: number;

/** What a browser on our own page sends, in each way it may say so, and a non-browser client. */
function sameSiteHeaders(baseUrl: string): [string, [string, string][]][] {
  return [
    ["same Origin", [["Origin", baseUrl]]],
    [
      "same Origin and Sec-Fetch-Site: same-origin",
      [
        ["Origin", baseUrl],
        ["Sec-Fetch-Site", "same-origin"],
      ],
    ],
    ["Sec-Fetch-Site: same-origin without Origin", [["Sec-Fetch-Site", "same-origin"]]],
    [
      "Origin: null beside Sec-Fetch-Site: same-origin (a page whose policy hides its address)",
      [
        ["Origin", "null"],
        ["Sec-Fetch-Site", "same-origin"],
      ],
    ],
    ["Sec-Fetch-Site: none (typed address, bookmark)", [["Sec-Fetch-Site", "none"]]],
    ["neither (not a browser)", []],
  ];
}

describe(`cross-site posts (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    app = await startAppServer({ TRUST_PROXY: "loopback" });
    vars = await loadVars(app.database.db);
    // The worst case: the administrator's cookie goes along (SameSite=Lax would keep it home).
    const admin = await createAdmin(app.database.db, ADMIN_CREDENTIALS);
    adminId = admin.id;
    adminHeaders = [["Cookie", await sessionCookieFor(admin.id, app.database.db)]];
    cases = crossSiteCases([...PUBLIC_ACTIONS, ...ADMIN_ACTIONS], app.baseUrl);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("refuses every forged origin on every action", async () => {
    expect(cases.length).toBeGreaterThanOrEqual(8 * 7);
    const [{ n: countersBefore }] = await app.database.db.select({ n: count() }).from(rateLimits);
    for (const c of cases) {
      await runCase(c, { baseUrl: app.baseUrl, db: app.database.db, vars, adminHeaders });
    }
    const [{ n: countersAfter }] = await app.database.db.select({ n: count() }).from(rateLimits);
    expect(countersAfter).toBe(countersBefore);
  });

  it("accepts the same post from the site itself (the check is not refusing everything)", async () => {
    const [{ n: before }] = await app.database.db.select({ n: count() }).from(contactRequests);
    for (const [index, [label, headers]] of sameSiteHeaders(app.baseUrl).entries()) {
      const answer = await send(app.baseUrl, {
        method: "POST",
        path: "/contact",
        headers: [
          ["Content-Type", "application/x-www-form-urlencoded"],
          ["X-Forwarded-For", `192.0.2.${index + 10}`],
          ...headers,
        ],
        body: PUBLIC_ACTIONS[0].body as string,
      });
      expect(answer.status, label).toBe(303);
    }
    const [{ n: after }] = await app.database.db.select({ n: count() }).from(contactRequests);
    expect(after).toBe(before + sameSiteHeaders(app.baseUrl).length);
  });

  it("accepts an admin action from the site itself with the same session", async () => {
    const [{ n: before }] = await app.database.db.select({ n: count() }).from(contactRequests);
    const answer = await send(app.baseUrl, {
      method: "POST",
      path: "/admin/contacts",
      headers: [
        ["Content-Type", "application/x-www-form-urlencoded"],
        ["Origin", app.baseUrl],
        ["Sec-Fetch-Site", "same-origin"],
        ...adminHeaders,
      ],
      body: `id=${vars.contactId}&status=completed`,
    });
    expect(answer.status).toBe(302);
    const rows = await app.database.db.select().from(contactRequests);
    expect(rows).toHaveLength(before);
    expect(rows.find((r) => r.id === vars.contactId)?.status).toBe("completed");
  });

  it("accepts sign-in and sign-out from the site itself, in every way a browser says so", async () => {
    const db = app.database.db;
    for (const [label, headers] of sameSiteHeaders(app.baseUrl)) {
      const signIn = await send(app.baseUrl, {
        method: "POST",
        path: "/auth",
        headers: [["Content-Type", "application/x-www-form-urlencoded"], ...headers],
        body: urlencoded(ADMIN_CREDENTIALS),
      });
      expect(signIn.status, `sign-in, ${label}`).toBe(302);
      expect(String(signIn.headers["set-cookie"]), `sign-in, ${label}`).toMatch(/admin_session=\S/);

      const cookie = await sessionCookieFor(adminId, db);
      const [{ n: before }] = await db.select({ n: count() }).from(sessions);
      const signOut = await send(app.baseUrl, {
        method: "POST",
        path: "/admin/logout",
        headers: [
          ["Content-Type", "application/x-www-form-urlencoded"],
          ["Cookie", cookie],
          ...headers,
        ],
        body: "",
      });
      expect(signOut.status, `sign-out, ${label}`).toBe(302);
      const [{ n: after }] = await db.select({ n: count() }).from(sessions);
      expect(after, `sign-out ends the session, ${label}`).toBe(before - 1);
    }
  });

  it("accepts an admin action from the site itself, in every way a browser says so", async () => {
    const db = app.database.db;
    for (const [label, headers] of sameSiteHeaders(app.baseUrl)) {
      for (const status of ["cancelled", "pending"]) {
        const answer = await send(app.baseUrl, {
          method: "POST",
          path: "/admin/contacts",
          headers: [
            ["Content-Type", "application/x-www-form-urlencoded"],
            ...adminHeaders,
            ...headers,
          ],
          body: `id=${vars.contactId}&status=${status}`,
        });
        expect(answer.status, `${label}: ${status}`).toBe(302);
        const [row] = await db
          .select()
          .from(contactRequests)
          .where(eq(contactRequests.id, vars.contactId));
        expect(row.status, `${label}: ${status}`).toBe(status);
      }
    }
  });
});
