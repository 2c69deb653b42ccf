import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./harness/server-process";
import { useServer } from "./harness/use-server";
import { postContact, sleep } from "./support";

/**
 * GET /metrics (issue 31) on the built server: closed without the bearer token, and what
 * Prometheus reads after a few pages, a stored page, a 404 and a refused contact post. Closed
 * (404) without METRICS_TOKEN: access-log.test.ts.
 */

const TOKEN = "jeton-de-test-metrics-0123456789";

describe("metrics", () => {
  const server = useServer({
    label: "metrics",
    // One contact request per address: the second is refused (429).
    env: { METRICS_TOKEN: TOKEN, CONTACT_RATE_LIMIT: "1" },
  });

  const scrape = (authorization?: string) =>
    fetch(`${server.base}/metrics`, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });

  it("answers 401 without the right bearer token, 200 with it, never cached", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`,
      `Bearer  ${TOKEN} extra`,
      `Bearer ${"a".repeat(5000)}`,
      TOKEN,
    ]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization).slice(0, 40)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).not.toContain("http_request_duration_seconds");
    }
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // Refused scrapes are logged; Prometheus's own, every 15 s or so, are not (at info). One
    // more refused scrape, logged after the accepted one, says when the log is complete.
    expect((await scrape()).status).toBe(401);
    const scrapes = () => server.logLines("request").filter((l) => l.path === "/metrics");
    for (let i = 0; i < 100 && scrapes().length < 8; i++) await sleep(20);
    expect(scrapes().map((l) => l.status)).toEqual(Array(8).fill(401));
  });

  it("counts requests by route pattern, the page cache, rate-limit refusals and the outbox", async () => {
    const slug = "xeon-web-2-promo-ete";
    const get = async (path: string) => {
      const res = await fetch(`${server.base}${path}`);
      await res.arrayBuffer();
      return res;
    };
    expect((await get("/offers?q=web")).headers.get("x-cache")).toBe("MISS");
    expect((await get("/offers?q=web")).headers.get("x-cache")).toBe("HIT");
    expect((await get(`/offers/${slug}`)).status).toBe(200);
    expect((await get("/nulle-part")).status).toBe(404);
    const visitor = { name: "Jean", email: "jean@example.fr", message: "Bonjour" };
    expect(await postContact(server.base, visitor, "10.7.7.7")).toBe(200);
    expect(await postContact(server.base, visitor, "10.7.7.7")).toBe(429);

    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const count = (labels: string) => value(`http_request_duration_seconds_count{${labels}}`);

    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(count('method="GET",route="/offers",status_code="200"')).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="page-cache",status_code="200"')).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="/offers/:slug",status_code="200"')).toBe(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).toBe(1);
    expect(count('method="POST",route="/contact",status_code="303"')).toBe(1);
    expect(count('method="POST",route="/contact",status_code="429"')).toBe(1);
    expect(count('method="GET",route="/contact/merci",status_code="200"')).toBe(1);
    // Route patterns, never addresses: the offer's slug is no label.
    expect(text).not.toContain(slug);
    expect(text).not.toContain("nulle-part");

    expect(value("serveurpro_page_cache_hits_total")).toBeGreaterThanOrEqual(1);
    expect(value("serveurpro_page_cache_misses_total")).toBeGreaterThanOrEqual(2);
    expect(value('serveurpro_rate_limit_refusals_total{limit="contact"}')).toBe(1);
    // No SMTP_URL: the team's notification of the stored request waits in the outbox.
    expect(value('serveurpro_queue_jobs{queue="mail",status="pending"}')).toBe(1);
    expect(value('serveurpro_queue_jobs{queue="mail",status="failed"}')).toBe(0);
    expect(value('serveurpro_queue_jobs{queue="webhook",status="pending"}')).toBe(0);
    expect(value('serveurpro_queue_oldest_pending_seconds{queue="mail"}')).toBeGreaterThan(0);
    // The embedded database has no pool (PostgreSQL's: rolling-restart.test.ts).
    expect(text).not.toContain("serveurpro_db_pool{");
    expect(value("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(value("nodejs_heap_size_used_bytes")).toBeGreaterThan(0);

    // The documented alerts read metrics that exist (a histogram's series: _count, _sum, _bucket).
    const alerts = readFileSync(path.join(ROOT, "deploy/prometheus/serveurpro-alerts.yml"), "utf8");
    const used = new Set(alerts.match(/\b(serveurpro|http)_[a-z_]+\b/g));
    expect(used.size).toBeGreaterThanOrEqual(3);
    const declared = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => m[1]));
    for (const name of used) {
      expect(declared.has(name.replace(/_(count|sum|bucket)$/, "")), name).toBe(true);
    }
  });
});
