import { describe, expect, it } from "vitest";
import { FLOOD_ADDRESS, getFrom } from "./harness/flood";
import { useServer } from "./harness/use-server";

// The catalogue API, its document and the Atom feed on the built server (issue 30): cached like the
// pages (ETag, 304), readable from any site, limited per client address when rendered.
const SITE = "https://serveurs.example.fr";
const server = useServer({
  label: "api",
  env: { SITE_URL: SITE, PUBLIC_RENDER_BURST: "40" }, // enough for the first three tests from 127.0.0.1; the flood drains it
});

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${server.base}${path}`, { redirect: "manual", headers });
}

describe("the catalogue API over HTTP (built server)", () => {
  it("answers JSON cached like the pages: ETag, 304, CORS for reads, on the list and on an offer", async () => {
    for (const path of [
      "/api/offers",
      "/api/offers?type=dedicated&sort=price_asc",
      "/api/offers/starter-web",
      "/api/openapi.json",
    ]) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      expect(first.headers.get("content-type"), path).toBe("application/json; charset=utf-8");
      expect(first.headers.get("access-control-allow-origin"), path).toBe("*");
      const body = await first.json();
      const second = await get(path);
      expect(second.headers.get("x-cache"), path).toBe("HIT");
      expect(second.headers.get("cache-control")).toBe(
        "public, max-age=0, s-maxage=60, stale-while-revalidate=600",
      );
      expect(await second.json()).toEqual(body);
      const etag = second.headers.get("etag") ?? "";
      expect(etag).toMatch(/^W\/"/);
      const revalidated = await get(path, {
        "If-None-Match": etag,
        Origin: "https://ailleurs.example",
      });
      expect(revalidated.status, path).toBe(304);
      expect(revalidated.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    const list = await (await get("/api/offers")).json();
    expect(list.offers[0].url).toMatch(new RegExp(`^${SITE}/offers/[a-z0-9-]+$`));
  });

  it("answers the CORS preflight with 204 and any other method with 405 and Allow", async () => {
    for (const path of ["/api/offers", "/api/offers/starter-web"]) {
      const preflight = await fetch(`${server.base}${path}`, {
        method: "OPTIONS",
        headers: {
          Origin: "https://ailleurs.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "if-none-match",
        },
      });
      expect(preflight.status, path).toBe(204);
      expect(await preflight.text()).toBe("");
      expect(Object.fromEntries(preflight.headers)).toMatchObject({
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, HEAD, OPTIONS",
        "access-control-allow-headers": expect.stringContaining("If-None-Match"),
        "access-control-expose-headers": expect.stringContaining("ETag"),
        "access-control-max-age": "7200",
        allow: "GET, HEAD, OPTIONS",
      });
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const refused = await fetch(`${server.base}${path}`, { method, redirect: "manual" });
        expect(refused.status, `${method} ${path}`).toBe(405);
        expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        expect(refused.headers.get("access-control-allow-origin")).toBe("*");
        expect((await refused.json()).title).toBe("Méthode non autorisée");
      }
      const read = await get(path);
      expect(read.headers.get("access-control-expose-headers")).toContain("ETag");
    }
    const document = await (await get("/api/openapi.json")).json();
    for (const path of ["/api/offers", "/api/offers/{slug}"]) {
      expect(Object.keys(document.paths[path].options.responses[204].headers)).toEqual([
        "Access-Control-Allow-Origin",
        "Access-Control-Allow-Methods",
        "Access-Control-Allow-Headers",
        "Access-Control-Max-Age",
      ]);
    }
  });

  it("answers OPTIONS before the application: the preflight on /api/, 405 with Allow elsewhere, no loader run", async () => {
    // Resource routes whose loaders React Router would run for OPTIONS (and answer 200 with what
    // they read), pages with and without an action, an unknown address.
    const allowed: [string, string][] = [
      ["/contact/offers?q=xeon", "GET, HEAD"],
      ["/offers.atom", "GET, HEAD"],
      ["/sitemap.xml", "GET, HEAD"],
      ["/offers?q=epyc", "GET, HEAD"],
      ["/contact", "GET, HEAD, POST"],
      ["/alertes", "GET, HEAD, POST"],
      ["/adresse-inconnue", "GET, HEAD"],
    ];
    for (const [path, methods] of allowed) {
      const res = await fetch(`${server.base}${path}`, {
        method: "OPTIONS",
        headers: { Origin: "https://ailleurs.example", "Access-Control-Request-Method": "GET" },
      });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow"), path).toBe(methods);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      expect(await res.text(), path).toContain(
        "Cette adresse n&#39;accepte pas ce type de requête.",
      );
    }
    for (const path of ["/api/openapi.json", "/api/offers?q=xeon", "/api/inconnue"]) {
      const res = await fetch(`${server.base}${path}`, { method: "OPTIONS" });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-methods"), path).toBe("GET, HEAD, OPTIONS");
      expect(await res.text(), path).toBe("");
    }
  });

  it("answers French problem details for bad input and unknown offers, never cached", async () => {
    const bad = await get("/api/offers?type=serveur");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    expect(await bad.json()).toEqual({
      status: 400,
      title: "Paramètres invalides",
      detail: "type : dedicated ou loa est attendu.",
    });
    const missing = await get("/api/offers/inconnue");
    expect(missing.status).toBe(404);
    expect((await missing.json()).title).toBe("Offre non trouvée");
    expect((await get("/api/offers/inconnue")).headers.get("x-cache")).toBeNull();
  });

  it("serves the Atom feed, linked from the listing's head; the footer links the API's document", async () => {
    const feed = await get("/offers.atom");
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await feed.text();
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/,
    );
    expect(xml).toContain(
      `<link rel="self" type="application/atom+xml" href="${SITE}/offers.atom"/>`,
    );
    expect(xml).toMatch(/<entry><id>https:\/\/serveurs\.example\.fr\/offers\/[a-z0-9-]+#/);
    expect((await get("/offers.atom")).headers.get("x-cache")).toBe("HIT");
    const listing = await (await get("/offers")).text();
    expect(listing).toContain(
      `<link rel="alternate" type="application/atom+xml" title="ServeurPro — nouvelles offres et retours en stock" href="${SITE}/offers.atom"/>`,
    );
    expect(listing).toMatch(/<a href="\/api\/openapi\.json"[^>]*>API \(OpenAPI\)<\/a>/);
    const sitemap = await (await get("/sitemap.xml")).text();
    expect(sitemap).toContain(`<loc>${SITE}/api/openapi.json</loc>`);
    expect(sitemap).toContain(`<loc>${SITE}/offers.atom</loc>`);
  });

  it("limits the renders of one client address with a JSON 429, while cached answers still go out", async () => {
    let refusal: Awaited<ReturnType<typeof getFrom>> | undefined;
    for (let n = 0; n < 200 && !refusal; n++) {
      const answer = await getFrom(server.base, `/api/offers?q=jamais-vu-${n}`, {
        localAddress: FLOOD_ADDRESS,
      });
      if (answer.status === 429) refusal = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refusal?.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(Number(refusal?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refusal!.body.toString()).title).toBe("Trop de requêtes");
    const cached = await getFrom(server.base, "/api/offers", { localAddress: FLOOD_ADDRESS });
    expect([cached.status, cached.headers["x-cache"]]).toEqual([200, "HIT"]);
  });
});
