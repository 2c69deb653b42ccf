import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { httpsRequest, nginxFor, startNginx, type NginxProcess } from "./harness/nginx";
import { findFreePort } from "./harness/ports";
import { ROOT, startServer, type ServerProcess } from "./harness/server-process";
import { hasPostgres } from "./harness/use-postgres";
import { clientAddress, sleep } from "./support";

/**
 * Issue 31: a rolling restart behind the documented nginx configuration (deploy/nginx/, the file
 * itself with this test's ports) loses nothing and shows no error. Two built instances on a fresh
 * PostgreSQL database; a few visitors read pages and post the contact form through nginx while
 * each instance in turn gets SIGTERM and is started again, its /healthz answering 200 before the
 * next. Kept lean for CI: 4 visitors, each instance restarted once.
 */

const VISITORS = 4;
const READS = ["/offers", "/", "/offers?type=loa", "/contact", "/healthz"];
const METRICS_TOKEN = "jeton-metrics-redemarrage-0123456789";

type Failure = { what: string; status?: number; error?: string };

/** Visitors, one after another: a page (listing, home, an offer, the form), then a contact post. */
function visitors(proxy: NginxProcess, slugs: string[]) {
  let stopped = false;
  const acknowledged = new Set<string>();
  const failures: Failure[] = [];
  let answers = 0;
  const visitor = async (n: number) => {
    for (let seq = 0; !stopped; seq++) {
      const read =
        seq % 3 === 2 ? `/offers/${slugs[seq % slugs.length]}` : READS[seq % READS.length];
      const id = `${n}-${seq}`;
      try {
        const page = await httpsRequest(proxy, {
          path: read,
          headers: { "X-Forwarded-For": clientAddress(n + 1) },
        });
        answers++;
        if (page.status >= 400) failures.push({ what: `GET ${read}`, status: page.status });
      } catch (error) {
        failures.push({ what: `GET ${read}`, error: String(error) });
      }
      // As the form posts itself: same origin, its own submission token.
      try {
        const post = await httpsRequest(proxy, {
          method: "POST",
          path: "/contact",
          headers: {
            Accept: "text/html",
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: proxy.base,
            "Sec-Fetch-Site": "same-origin",
          },
          body: new URLSearchParams({
            name: `Visiteur ${n}`,
            email: `visiteur${n}@example.fr`,
            phone: "",
            offer: "general",
            message: `redemarrage ${id}`,
            submission: randomUUID(),
          }).toString(),
        });
        answers++;
        const location = String(post.headers.location ?? "");
        if (post.status === 303 && location.startsWith("/contact/merci?ref=DEM-")) {
          acknowledged.add(id);
        } else {
          failures.push({ what: `POST /contact ${id} → ${location}`, status: post.status });
        }
      } catch (error) {
        failures.push({ what: `POST /contact ${id}`, error: String(error) });
      }
    }
  };
  const running = Array.from({ length: VISITORS }, (_, n) => visitor(n));
  return {
    acknowledged,
    failures,
    answers: () => answers,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

it("docs/production.md shows the deploy files as they are (the tested nginx configuration too)", () => {
  const doc = readFileSync(path.join(ROOT, "docs/production.md"), "utf8");
  for (const file of [
    "deploy/nginx/serveurpro.conf",
    "deploy/systemd/serveurpro@.service",
    "deploy/prometheus/prometheus.yml",
    "deploy/prometheus/serveurpro-alerts.yml",
  ]) {
    const marker = `<!-- ${file} -->\n\n\`\`\``;
    const at = doc.indexOf(marker);
    expect(at, `${file} is not shown in docs/production.md`).toBeGreaterThan(-1);
    const start = doc.indexOf("\n", at + marker.length) + 1;
    const shown = doc.slice(start, doc.indexOf("\n```", start));
    expect(shown, file).toBe(readFileSync(path.join(ROOT, file), "utf8").trimEnd());
  }
});

describe.skipIf(!hasPostgres || !nginxFor("the rolling restart test"))(
  "rolling restart behind nginx",
  () => {
    let database: TestDatabase | undefined;
    let proxy: NginxProcess | undefined;
    const servers: ServerProcess[] = [];
    afterAll(async () => {
      await proxy?.stop();
      await Promise.all(servers.map((s) => s.stop("SIGKILL")));
      await database?.drop();
    });

    it("restarts each instance under load: only 2xx/3xx answers, every acknowledged post stored", async () => {
      const t0 = Date.now();
      database = await createPostgresDatabase("rolling");
      const ports = { a: await findFreePort(), b: await findFreePort() };
      const [httpsPort, httpPort] = [await findFreePort(), await findFreePort()];
      const env = {
        SITE_URL: `https://127.0.0.1:${httpsPort}`,
        // Every visitor comes through nginx: one address for the per-address contact limit.
        CONTACT_RATE_LIMIT: "100000",
        METRICS_TOKEN,
      };
      const start = (port: number) => {
        const server = startServer({ port, databaseUrl: database!.url, env });
        servers.push(server);
        return server;
      };
      const instances = [start(ports.a), start(ports.b)];
      await Promise.all(instances.map((s) => s.ready()));
      proxy = await startNginx({ httpsPort, httpPort, upstreamPorts: [ports.a, ports.b] });
      const listing = await httpsRequest(proxy, { path: "/offers" });
      expect(listing.status).toBe(200);
      const slugs = [
        ...new Set([...listing.text.matchAll(/href="\/offers\/([a-z0-9-]+)"/g)].map((m) => m[1])),
      ];
      expect(slugs.length).toBeGreaterThan(0);
      const t1 = Date.now();

      const load = visitors(proxy, slugs);
      await sleep(300);
      for (const [i, port] of [ports.a, ports.b].entries()) {
        const exit = await instances[i].stop("SIGTERM");
        expect(exit.code, instances[i].output.slice(-3000)).toBe(0);
        instances[i] = await start(port).ready();
      }
      await sleep(300);
      await load.stop();
      const t2 = Date.now();

      const stored = await withClient(database.url, async (c) =>
        (
          await c.query<{ message: string }>(
            "select message from contact_requests where message like 'redemarrage %'",
          )
        ).rows.map((r) => r.message.slice("redemarrage ".length)),
      );
      const missing = [...load.acknowledged].filter((id) => !stored.includes(id));
      console.log(
        `rolling restart: ${load.answers()} answers through nginx, ${load.acknowledged.size} posts ` +
          `acknowledged, ${stored.length} stored, ${load.failures.length} failures; set-up ` +
          `${t1 - t0} ms, restarts under load ${t2 - t1} ms`,
      );
      expect(load.failures, proxy.errorLog().slice(-4000)).toEqual([]);
      expect(load.acknowledged.size).toBeGreaterThan(0);
      expect(missing).toEqual([]);

      // The metrics of an instance on PostgreSQL: its pool, and the outbox (no SMTP_URL here: the
      // team's notifications wait).
      const metrics = await (
        await fetch(`${instances[1].base}/metrics`, {
          headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).text();
      const value = (series: string) =>
        Number(
          metrics
            .split("\n")
            .find((l) => l.startsWith(`${series} `))
            ?.slice(series.length + 1),
        );
      expect(value('serveurpro_db_pool{state="total"}')).toBeGreaterThan(0);
      expect(value('serveurpro_db_pool{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(value('serveurpro_db_pool{state="waiting"}')).toBeGreaterThanOrEqual(0);
      expect(value('serveurpro_db_pool{state="max"}')).toBe(10);
      expect(value('serveurpro_queue_jobs{queue="mail",status="pending"}')).toBe(stored.length);
      await Promise.all(instances.map((s) => s.stopCleanly()));
    });
  },
);
