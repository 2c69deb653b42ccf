import { createHash, randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  bumpCatalogueVersion,
  getCatalogueVersion,
} from "../../app/features/offers/catalogue.server";
import { catalogueReader } from "../../http-server/catalogue-watch";
import { PageCache } from "../../http-server/page-cache";
import { isCacheableRequest } from "../../http-server/page-cache-rules";
import { sendFetchResponse } from "../../http-server/fetch-adapter";
import { contentSecurityPolicy, newNonce } from "../../http-server/security-headers";
import { themeStorageKey } from "../../app/lib/site";
import { VIEW_TOKEN_HEADER } from "../../app/lib/http-headers";
import { themeBootScript } from "../../app/platform/theme";
import { siteConfig } from "../../app/platform/site.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

/** The inline script of every page (root.tsx), which the site's policy allows by hash. */
const THEME_SCRIPT = themeBootScript(themeStorageKey(siteConfig()));

/**
 * A page-cache front like http-server/http.ts, over a stand-in for React Router that counts renders
 * and puts the catalogue version in the page (and the response's nonce in a page that hydrates).
 */
async function startFront(options: { maxAgeMs?: number; maxBytes?: number } = {}) {
  const renders: string[] = [];
  const cache = new PageCache({
    readCatalogue: catalogueReader(database),
    buildTime: new Date("2026-01-01T00:00:00Z"),
    maxAgeMs: options.maxAgeMs,
    maxBytes: options.maxBytes,
  });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = newNonce();
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(res.locals.cspNonce));
    next();
  });
  app.use(async (req, res, next) => {
    const nonce = res.locals.cspNonce as string;
    const render = async () => {
      renders.push(req.originalUrl);
      const { version } = await getCatalogueVersion();
      if (req.path === "/offers/missing") return new Response("absent", { status: 404 });
      if (req.path === "/offers/hydrated") {
        const html = `<script nonce="${nonce}">window.__data = 1;</script>`;
        return new Response(html, { headers: { "Content-Type": "text/html" } });
      }
      if (req.path === "/contact") {
        // The contact form: private as rendered, its one token named for the cache.
        const token = randomUUID();
        const html = `<html><form>${"<option>Offre</option>".repeat(200)}<input name="submission" value="${token}"></form></html>`;
        const headers = { "Content-Type": "text/html", "Cache-Control": "private, no-store" };
        return new Response(html, { headers: { ...headers, [VIEW_TOKEN_HEADER]: token } });
      }
      if (req.path === "/offers/with-cookie") {
        return new Response("<p>flash</p>", {
          headers: { "Content-Type": "text/html", "Set-Cookie": "sp_flash=1; Path=/" },
        });
      }
      const filler = "<p>Serveurs dédiés et location LOA.</p>".repeat(100);
      const html = `<html><script>${THEME_SCRIPT}</script><script type="application/ld+json">{}</script><style>p{}</style><p>v${version} ${req.originalUrl}</p>${filler}</html>`;
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    };
    try {
      if (isCacheableRequest(req)) await cache.serve(req, res, render);
      else await sendFetchResponse(res, await render());
    } catch (error) {
      next(error);
    }
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    cache,
    renders,
    url,
    get: (path: string, init?: RequestInit) => fetch(`${url()}${path}`, init),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function nonceOf(response: Response): string {
  const csp = response.headers.get("content-security-policy") ?? "";
  return /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
}

describe(`page cache (${testDatabaseKind})`, () => {
  let front: Awaited<ReturnType<typeof startFront>>;

  beforeEach(async () => {
    await front?.close();
    front = await startFront();
  });
  afterAll(async () => {
    await front?.close();
  });

  it("renders once, then serves the stored page as is: no nonce, the inline script allowed by hash", async () => {
    const first = await front.get("/offers");
    const second = await front.get("/offers");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(front.renders).toEqual(["/offers"]);

    const [a, b] = [await first.text(), await second.text()];
    expect(b).toBe(a);
    expect(b).not.toContain("nonce");
    expect(b).toContain(`<script>${THEME_SCRIPT}</script>`);
    const hash = createHash("sha256").update(THEME_SCRIPT).digest("base64");
    for (const response of [first, second]) {
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toBe(contentSecurityPolicy());
      expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(policy).not.toContain("nonce");
      expect(/script-src ([^;]*)/.exec(policy)?.[1]).not.toContain("unsafe-inline");
    }
    expect(first.headers.get("etag")).toBe(second.headers.get("etag"));
  });

  it("does not keep a page that carries its nonce (a page that hydrates)", async () => {
    const first = await front.get("/offers/hydrated");
    const again = await front.get("/offers/hydrated");
    expect(nonceOf(again)).not.toBe(nonceOf(first));
    expect(await again.text()).toContain(`nonce="${nonceOf(again)}"`);
    expect(front.renders).toHaveLength(2);
  });

  it("sends brotli or gzip copies made once, the same page once decompressed", async () => {
    const plain = await (await front.get("/confidentialite")).text();
    await new Promise((resolve) => setTimeout(resolve, 300)); // compression runs in the background
    const br = await front.get("/confidentialite", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(Number(br.headers.get("content-length"))).toBeLessThan(Buffer.byteLength(plain) / 3);
    expect(await br.text()).toBe(plain); // fetch decodes it
    const gz = await front.get("/confidentialite", {
      headers: { "Accept-Encoding": "gzip;q=1, br;q=0" },
    });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(await gz.text()).toBe(plain);
    // The client's preference wins over ours (brotli first only among equals).
    const preferred = await front.get("/confidentialite", {
      headers: { "Accept-Encoding": "br;q=0.5, gzip" },
    });
    expect(preferred.headers.get("content-encoding")).toBe("gzip");
    const identity = await front.get("/confidentialite", {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(front.renders).toEqual(["/confidentialite"]);
  });

  it("keeps at most maxBytes of pages, the least recently used out first", async () => {
    await front.close();
    const maxBytes = 64 * 1024;
    front = await startFront({ maxBytes });
    await front.get("/offers?page=1");
    for (let page = 2; page <= 30; page++) {
      await front.get(`/offers?page=${page}`);
      await front.get("/offers?page=1"); // kept in use
    }
    expect(front.cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    expect(front.cache.size.entries).toBeLessThan(30);
    expect((await front.get("/offers?page=1")).headers.get("x-cache")).toBe("HIT");
    expect((await front.get("/offers?page=30")).headers.get("x-cache")).toBe("HIT");
    expect((await front.get("/offers?page=2")).headers.get("x-cache")).toBe("MISS");
  });

  it("lets CDNs keep public pages briefly and revalidate in the background", async () => {
    const response = await front.get("/");
    expect(response.headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=600",
    );
    expect(response.headers.get("vary")).toMatch(/Cookie/);
    expect(response.headers.get("etag")).toMatch(/^W\/".+"$/);
    expect(new Date(response.headers.get("last-modified") ?? "").getTime()).toBeGreaterThan(0);
  });

  it("answers 304 to a current If-None-Match or If-Modified-Since, 200 otherwise", async () => {
    const first = await front.get("/offers/epyc");
    const etag = first.headers.get("etag") ?? "";
    const lastModified = first.headers.get("last-modified") ?? "";

    const revalidated = await front.get("/offers/epyc", { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    expect(revalidated.headers.get("etag")).toBe(etag);

    const listed = await front.get("/offers/epyc", {
      headers: { "If-None-Match": `W/"other", ${etag}` },
    });
    expect(listed.status).toBe(304);
    const since = await front.get("/offers/epyc", {
      headers: { "If-Modified-Since": lastModified },
    });
    expect(since.status).toBe(304);

    const stale = await front.get("/offers/epyc", { headers: { "If-None-Match": 'W/"old"' } });
    expect(stale.status).toBe(200);
    const older = await front.get("/offers/epyc", {
      headers: { "If-Modified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" },
    });
    expect(older.status).toBe(200);
  });

  it("drops every page as soon as the catalogue version changes", async () => {
    const before = await (await front.get("/offers")).text();
    await front.get("/");
    const etag = (await front.get("/offers")).headers.get("etag") ?? "";

    await bumpCatalogueVersion();
    const { version } = await getCatalogueVersion();

    const after = await front.get("/offers", { headers: { "If-None-Match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
    const text = await after.text();
    expect(text).toContain(`v${version} /offers`);
    expect(text).not.toBe(before);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await front.get("/")).headers.get("x-cache")).toBe("MISS");
  });

  it("never serves a page older than the last committed write, even under concurrency", async () => {
    await front.get("/offers");
    // Requests in flight while the write commits, then requests after it: the later ones must all
    // see the new version (the freshness read starts after they arrive).
    const during = Array.from({ length: 10 }, () => front.get("/offers").then((r) => r.text()));
    await bumpCatalogueVersion();
    const { version } = await getCatalogueVersion();
    const after = await Promise.all(
      Array.from({ length: 20 }, () => front.get("/offers").then((r) => r.text())),
    );
    await Promise.all(during);
    for (const text of after) expect(text).toContain(`v${version} /offers`);
  });

  it("keeps distinct queries apart and renders concurrent misses once", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => front.get("/offers?q=epyc").then((r) => r.text())),
    );
    await front.get("/offers?q=xeon");
    expect(new Set(results).size).toBe(1); // the same bytes for everyone
    expect(front.renders.filter((path) => path === "/offers?q=epyc")).toHaveLength(1);
    expect(front.renders).toContain("/offers?q=xeon");
  });

  it("does not cache for visitors with cookies, POSTs, or /contact?offer= (personal)", async () => {
    for (let i = 0; i < 2; i++) {
      const withCookie = await front.get("/offers", { headers: { Cookie: "sp_session=abc" } });
      expect(withCookie.headers.get("x-cache")).toBeNull();
      await front.get("/offers", { method: "POST", body: "a=b" });
      await front.get("/contact", { headers: { Cookie: "sp_session=abc" } });
      await front.get("/contact?offer=3");
    }
    expect(front.renders).toEqual([
      "/offers",
      "/offers",
      "/contact",
      "/contact?offer=3",
      "/offers",
      "/offers",
      "/contact",
      "/contact?offer=3",
    ]);
  });

  it("renders the first page of a visit from another site for it, and keeps the site's own visits' (issue 42)", async () => {
    const from = (referer: string) => front.get("/offers/from", { headers: { Referer: referer } });
    for (let i = 0; i < 2; i++) {
      expect(
        (await from("https://www.google.com/search?q=serveur")).headers.get("x-cache"),
      ).toBeNull();
    }
    await from(`${front.url()}/offers`);
    expect((await from(`${front.url()}/`)).headers.get("x-cache")).toBe("HIT");
    expect((await front.get("/offers/from")).headers.get("x-cache")).toBe("HIT");
    expect(front.renders).toEqual(["/offers/from", "/offers/from", "/offers/from"]);
  });

  it("keeps /contact once and puts a fresh form token in each answer, for this visitor only", async () => {
    const tokens = new Set<string>();
    for (const encoding of ["identity", "gzip", "gzip, deflate, br", "identity"]) {
      const response = await front.get("/contact", { headers: { "Accept-Encoding": encoding } });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("etag")).toBeNull();
      expect(response.headers.get(VIEW_TOKEN_HEADER)).toBeNull();
      const html = await response.text(); // fetch decodes the gzip member
      const token = /name="submission" value="([^"]+)"/.exec(html)?.[1] ?? "";
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      tokens.add(token);
    }
    expect(tokens.size).toBe(4);
    expect(front.renders).toEqual(["/contact"]);
    // The compressed answer is one valid gzip member, as a client without fetch's decoding reads it.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const url = new URL(`${front.url()}/contact`);
      import("node:http").then(({ get }) =>
        get(url, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve(Buffer.concat(chunks)));
        }).on("error", reject),
      );
    });
    expect(gunzipSync(raw).toString()).toMatch(/value="[0-9a-f-]{36}"><\/form><\/html>$/);
    // Never validated: a browser's copy would hold a spent token.
    const again = await front.get("/contact", { headers: { "If-None-Match": "*" } });
    expect(again.status).toBe(200);
  });

  it("does not keep responses that set a cookie or are not 200", async () => {
    for (let i = 0; i < 2; i++) {
      const flash = await front.get("/offers/with-cookie");
      expect(flash.headers.get("set-cookie")).toContain("sp_flash");
      const missing = await front.get("/offers/missing");
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control")).toBe("private, no-store");
    }
    expect(front.renders).toEqual([
      "/offers/with-cookie",
      "/offers/missing",
      "/offers/with-cookie",
      "/offers/missing",
    ]);
  });

  it("answers HEAD from the stored page without a body", async () => {
    await front.get("/confidentialite");
    const head = await front.get("/confidentialite", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect(front.renders).toEqual(["/confidentialite"]);
  });

  it("renders a page again once it is older than its maximum age", async () => {
    await front.close();
    front = await startFront({ maxAgeMs: 0 });
    await front.get("/");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await front.get("/");
    expect(front.renders).toEqual(["/", "/"]);
  });
});
