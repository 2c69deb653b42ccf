import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../http-server/request-body";
import { testDatabaseKind } from "../support/database";
import { signedInAdmin } from "../support/admin";
import { ADMIN_CREDENTIALS } from "./hostile/admin-cases";
import { loadVars } from "./hostile/run";
import { startAppServer, type AppServer } from "./harness/app-server";
import { send, type Answer } from "./harness/http";

// Security headers on every kind of answer of the built server, TRUST_PROXY unset
// (X-Forwarded-Proto is not honoured: no HSTS over plain HTTP whatever the client claims).
let app: AppServer;
let answers: { label: string; answer: Answer }[] = [];
let signIn: (headers?: [string, string][]) => Promise<Answer>;

function header(answer: Answer, name: string): string {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe(`security headers (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    app = await startAppServer({ TRUST_PROXY: "" });
    const vars = await loadVars(app.database.db);
    const { cookie } = await signedInAdmin(app.database.db, ADMIN_CREDENTIALS);
    const session: [string, string] = ["Cookie", cookie];
    signIn = (headers = []) =>
      send(app.baseUrl, {
        method: "POST",
        path: "/auth",
        headers: [["Content-Type", "application/x-www-form-urlencoded"], ...headers],
        body: new URLSearchParams(ADMIN_CREDENTIALS).toString(),
      });
    const asset = readdirSync("build/client/assets").find((f) => f.endsWith(".js"));
    const form = [["Content-Type", "application/x-www-form-urlencoded"]] as [string, string][];
    const requests: {
      label: string;
      method?: string;
      path: string;
      body?: string;
      headers?: [string, string][];
    }[] = [
      { label: "home", path: "/" },
      { label: "listing", path: "/offers?type=loa" },
      { label: "offer", path: `/offers/${vars.activeOfferSlug}` },
      { label: "contact", path: "/contact" },
      { label: "404 page", path: "/nulle-part" },
      { label: "404 offer", path: "/offers/inconnue" },
      { label: "health", path: "/healthz" },
      { label: "static file", path: "/favicon.svg" },
      { label: "fingerprinted asset", path: `/assets/${asset}` },
      { label: "redirect", path: "/offres" },
      { label: "data request", path: "/offers.data" },
      {
        label: "contact post (400)",
        method: "POST",
        path: "/contact",
        body: "name=",
        headers: form,
      },
      {
        label: "cross-site post (403)",
        method: "POST",
        path: "/contact",
        body: "a=1",
        headers: [...form, ["Origin", "https://evil.example"]],
      },
      { label: "wrong method (405)", method: "POST", path: "/offers", body: "a=1", headers: form },
      {
        label: "body too large (413)",
        method: "POST",
        path: "/contact",
        body: "a".repeat(MAX_BODY_BYTES + 1),
        headers: form,
      },
      {
        label: "unsupported type (415)",
        method: "POST",
        path: "/contact",
        body: "{}",
        headers: [["Content-Type", "application/json"]],
      },
      {
        label: "claims HTTPS without a trusted proxy",
        path: "/",
        headers: [["X-Forwarded-Proto", "https"]],
      },
      { label: "sign-in page", path: "/auth" },
      { label: "admin dashboard", path: "/admin", headers: [session] },
      { label: "admin offers", path: "/admin/offers", headers: [session] },
      { label: "admin offer editor", path: "/admin/offers/new", headers: [session] },
      { label: "admin contacts", path: "/admin/contacts", headers: [session] },
      { label: "admin page without session (redirect)", path: "/admin" },
      {
        label: "admin write without session (401)",
        method: "POST",
        path: "/admin/offers",
        body: "intent=create",
        headers: form,
      },
    ];
    answers = [];
    for (const r of requests) {
      answers.push({
        label: r.label,
        answer: await send(app.baseUrl, { ...r, method: r.method ?? "GET" }),
      });
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it("every answer carries the headers, never a 5xx", () => {
    for (const { label, answer } of answers) {
      expect(answer.status, label).toBeLessThan(500);
      expect(header(answer, "X-Content-Type-Options"), label).toBe("nosniff");
      expect(header(answer, "Referrer-Policy"), label).toBe("strict-origin-when-cross-origin");
      expect(header(answer, "X-Frame-Options"), label).toBe("DENY");
      expect(header(answer, "X-Request-Id"), label).toMatch(/^[0-9a-f-]{36}$/);
      expect(header(answer, "X-Powered-By"), label).toBe("");
      // Plain HTTP, no trusted proxy: no HSTS, even when the client claims HTTPS.
      expect(header(answer, "Strict-Transport-Security"), label).toBe("");
      const csp = directives(header(answer, "Content-Security-Policy"));
      expect(csp.get("frame-ancestors"), label).toEqual(["'none'"]);
      expect(csp.get("object-src"), label).toEqual(["'none'"]);
      expect(csp.get("base-uri"), label).toEqual(["'self'"]);
      expect(csp.get("form-action"), label).toEqual(["'self'"]);
      const scripts = csp.get("script-src") ?? [];
      expect(scripts, label).not.toContain("'unsafe-inline'");
      expect(scripts, label).not.toContain("'unsafe-eval'");
      // One policy: the inline scripts every page carries allowed by hash, plus, on a page rendered
      // for this response, its own nonce (used by the pages that hydrate React).
      const nonces = scripts.filter((s) => s.startsWith("'nonce-"));
      const hashes = scripts.filter((s) => s.startsWith("'sha256-"));
      expect(hashes.length, label).toBeGreaterThan(0);
      expect(nonces.length, label).toBeLessThanOrEqual(1);
    }
  });

  it("gives each response its own nonce, and covers every script of the page", () => {
    const nonces = new Set<string>();
    let withNonce = 0;
    let noncedScripts = 0;
    for (const { label, answer } of answers) {
      const policy = header(answer, "Content-Security-Policy");
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      const hashes = new Set([...policy.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]));
      if (nonce) {
        expect(nonce, label).toMatch(/^[A-Za-z0-9+/]{22}==$/);
        nonces.add(nonce);
        withNonce += 1;
      }
      if (!header(answer, "Content-Type").startsWith("text/html")) continue;
      const scripts = [...answer.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      for (const [tag, attributes, body] of scripts) {
        if (/type="application\/ld\+json"/.test(attributes)) continue; // data, never executed
        const tagNonce = /\snonce="([^"]*)"/.exec(attributes)?.[1];
        if (tagNonce !== undefined) {
          expect(tagNonce, `${label}: ${tag}`).toBe(nonce);
          noncedScripts += 1;
        } else if (/\ssrc=/.test(attributes)) {
          expect(attributes, `${label}: ${tag}`).toMatch(/\ssrc="\/[^/]/); // same origin ('self')
        } else {
          const digest = createHash("sha256").update(body, "utf8").digest("base64");
          expect(hashes.has(digest), `${label}: inline script not covered by a hash`).toBe(true);
        }
      }
      // No inline event handlers, which neither a nonce nor a hash would cover.
      expect(answer.text, label).not.toMatch(/<[^>]+\son[a-z]+=/i);
    }
    expect(nonces.size).toBe(withNonce);
    expect(withNonce).toBeGreaterThan(0);
    // The admin pages hydrate: React Router's scripts there run by nonce.
    expect(noncedScripts).toBeGreaterThan(0);
  });

  it("keeps a secret link's address to this site, with a policy its own form still posts under", async () => {
    const token = "a".repeat(43);
    const links = [
      `/alertes/confirmer?jeton=${token}`,
      `/alertes/desinscription?jeton=${token}`,
      `/recherches/confirmer?jeton=${token}`,
      `/recherches/desinscription?jeton=${token}`,
      `/devis/${token}`,
      `/auth/nouveau-mot-de-passe?token=${token}`,
    ];
    for (const path of links) {
      const answer = await send(app.baseUrl, { method: "GET", path });
      expect(answer.status, path).toBeLessThan(500);
      // One value, replacing the site's default (`no-referrer` would make the form's post say
      // `Origin: null`).
      expect(header(answer, "Referrer-Policy"), path).toBe("same-origin");
      expect(header(answer, "Cache-Control"), path).toBe("no-store");
      expect(header(answer, "X-Robots-Tag"), path).toBe("noindex, nofollow");
    }
  });

  it("sets no cookie on public pages", () => {
    for (const { label, answer } of answers.filter((a) => !/admin|sign-in/.test(a.label))) {
      expect(answer.headers["set-cookie"], label).toBeUndefined();
    }
  });

  it("keeps admin pages out of caches and search engines", () => {
    for (const { label, answer } of answers.filter((a) => /^(admin|sign-in)/.test(a.label))) {
      expect(answer.headers["cache-control"], label).toBe("no-store");
      expect(answer.headers["x-robots-tag"], label).toBe("noindex, nofollow");
    }
  });

  it("gives the session cookie HttpOnly and SameSite=Lax, and no Secure over plain HTTP", async () => {
    for (const headers of [[], [["X-Forwarded-Proto", "https"]]] as [string, string][][]) {
      const answer = await signIn(headers);
      expect(answer.status).toBe(302);
      const cookies = answer.headers["set-cookie"] ?? [];
      expect(
        cookies.some((c) => c.startsWith("admin_session=")),
        "session cookie",
      ).toBe(true);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/; HttpOnly(;|$)/);
        expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
        // X-Forwarded-Proto is not honoured without TRUST_PROXY.
        expect(cookie).not.toMatch(/; Secure(;|$)/);
      }
    }
  });

  it("never shows a stack trace", () => {
    for (const { label, answer } of answers) {
      expect(answer.text, label).not.toMatch(/\n\s+at \S+ \(.*:\d+:\d+\)/);
    }
  });
});
