import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../support/database";
import { PUBLIC_CASES, type Vars } from "./hostile/cases";
import { loadVars, runCase } from "./hostile/run";
import { startAppServer, type AppServer } from "./harness/app-server";

// The table of hostile and malformed inputs (tests/system/hostile/cases.ts) against the built
// server: each answers a 4xx with a French message, or is stored exactly as typed and rendered
// inert; never a 5xx; the database holds exactly the expected rows afterwards.
let app: AppServer;
let vars: Vars;

describe(`hostile input (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    // TRUST_PROXY: each case comes from its own address, as the rate limit is not under test here.
    app = await startAppServer({ TRUST_PROXY: "1" });
    vars = await loadVars(app.database.db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("covers the public forms and routes", () => {
    expect(PUBLIC_CASES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(PUBLIC_CASES.map((c) => c.name)).size).toBe(PUBLIC_CASES.length);
  });

  it.each(PUBLIC_CASES)("$name", async (c) => {
    await runCase(c, { baseUrl: app.baseUrl, db: app.database.db, vars });
  });
});
