import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactRequests, rateLimits } from "../../app/server/schema.server";
import { testDatabaseKind } from "../support/database";
import { createAdmin, sessionCookieFor } from "../support/admin";
import { ADMIN_ACTIONS, ADMIN_CREDENTIALS } from "./hostile/admin-cases";
import { crossSiteCases, PUBLIC_ACTIONS, type HostileCase, type Vars } from "./hostile/cases";
import { loadVars, runCase } from "./hostile/run";
import { startAppServer, type AppServer } from "./harness/app-server";
import { send } from "./harness/http";

// A form posted by another site's page (foreign Origin, or cross-site fetch metadata) to any
// action changes nothing: 403 with a French message, no row written, no counter touched.
let app: AppServer;
let vars: Vars;
let cases: HostileCase[] = [];
let adminHeaders: [string, string][];

describe(`cross-site posts (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    app = await startAppServer({ TRUST_PROXY: "1" });
    vars = await loadVars(app.database.db);
    // The worst case: the administrator's cookie goes along (SameSite=Lax would keep it home).
    const admin = await createAdmin(app.database.db, ADMIN_CREDENTIALS);
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
    for (const headers of [
      [["Origin", app.baseUrl]],
      [["Sec-Fetch-Site", "same-origin"]],
      [], // not a browser: no Origin, no fetch metadata
    ] as [string, string][][]) {
      const answer = await send(app.baseUrl, {
        method: "POST",
        path: "/contact",
        headers: [
          ["Content-Type", "application/x-www-form-urlencoded"],
          ["X-Forwarded-For", `192.0.2.${headers.length + 10}`],
          ...headers,
        ],
        body: PUBLIC_ACTIONS[0].body as string,
      });
      expect(answer.status).toBe(200);
    }
    const [{ n: after }] = await app.database.db.select({ n: count() }).from(contactRequests);
    expect(after).toBe(before + 3);
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
});
