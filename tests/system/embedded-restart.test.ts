import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { count, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "../../app/platform/db.server";
import { offers } from "../../app/platform/schema.server";
import { DEMO_OFFERS } from "../../app/features/setup/seed.server";
import { findFreePort } from "./harness/ports";
import { ROOT, startServer } from "./harness/server-process";
import { removeDir, sleep, tempDir } from "./support";

/**
 * The embedded database must reopen after a SIGKILL at any moment, including while the server
 * creates it, migrates it and loads the demo data (in a side directory, app/platform/db.server.ts).
 */

const migrationCount = (
  JSON.parse(readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

async function inspect(dataDir: string) {
  const handle = await openPglite(dataDir);
  try {
    const [{ n }] = await handle.db.select({ n: count() }).from(offers);
    const result = (await handle.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { n: number }[] };
    return { offers: n, migrations: result.rows[0].n };
  } finally {
    await handle.close();
  }
}

describe("embedded database: SIGKILL during start-up", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  // Moments of the first start, observed from outside: PGlite's initdb just begun; initdb has
  // written PG_VERSION (the file PGlite takes as "database exists") but maybe not the rest; the
  // migrations begun and the demo data loaded, both in the side directory; the new directory
  // renamed into place (PGlite reopening it), and a little later.
  const initDir = (dataDir: string) => readdirSync(dataDir).find((e) => e.startsWith("pgdata."));
  const logged = (line: string) => (_dir: string, output: string) => output.includes(line);
  const moments: [string, (dataDir: string, output: string) => boolean, number][] = [
    ["initdb begins", logged("creating the embedded database"), 0],
    [
      "initdb wrote PG_VERSION",
      (dir) => {
        const init = initDir(dir);
        return init !== undefined && existsSync(path.join(dir, init, "PG_VERSION"));
      },
      0,
    ],
    ["migrations begin", logged("preparing the new embedded database"), 0],
    ["migrations run", logged("preparing the new embedded database"), 150],
    ["demo data loaded", logged("demo offers loaded into the empty database"), 0],
    ["new directory in place", (dir) => existsSync(path.join(dir, "pgdata")), 0],
    ["new directory reopened", (dir) => existsSync(path.join(dir, "pgdata")), 250],
  ];

  it.each(moments)(
    "killed when %s, it restarts with the schema and the demo data once",
    async (moment, reached, delay) => {
      const dataDir = tempDir("kill-startup");
      dirs.push(dataDir);
      const port = await findFreePort();
      const first = startServer({ port, dataDir, freshDatabase: true });
      // (Never wait past the end of start-up: a missed moment shows as "start-up had finished".)
      while (first.running && !reached(dataDir, first.output)) {
        if (first.output.includes("server listening")) break;
        await sleep(2);
      }
      await sleep(delay);
      const ready = first.output.includes("database ready");
      first.child.kill("SIGKILL");
      await first.exited;
      console.log(
        `killed when ${moment}${delay ? ` + ${delay} ms` : ""}` +
          `${ready ? " (start-up had finished)" : ""}; left: ${readdirSync(dataDir).join(", ")}`,
      );

      const second = await startServer({ port, dataDir, freshDatabase: true }).ready();
      expect((await fetch(`${second.base}/offers`)).status).toBe(200);
      await second.stopCleanly();
      expect(readdirSync(dataDir).sort()).toEqual(["pgdata"]); // no lock, no leftovers
      expect(await inspect(dataDir)).toEqual({
        offers: DEMO_OFFERS.length,
        migrations: migrationCount,
      });
    },
  );

  it("two servers started at once on one new directory: one serves, the other refuses", async () => {
    const dataDir = tempDir("two-on-one-dir");
    dirs.push(dataDir);
    const a = startServer({ port: await findFreePort(), dataDir, freshDatabase: true });
    const b = startServer({ port: await findFreePort(), dataDir, freshDatabase: true });
    const [ra, rb] = await Promise.allSettled([a.ready(), b.ready()]);
    const winner = ra.status === "fulfilled" ? a : b;
    const loser = winner === a ? b : a;
    expect([ra.status, rb.status].sort()).toEqual(["fulfilled", "rejected"]);
    expect((await loser.exited).code).toBe(1);
    expect(loser.output).toContain("est déjà ouvert par un autre processus");
    await winner.stopCleanly();
    expect(await inspect(dataDir)).toEqual({
      offers: DEMO_OFFERS.length,
      migrations: migrationCount,
    });
  });
});
