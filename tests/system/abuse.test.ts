import { count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactRequests, mailOutbox } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { createAdmin } from "../support/admin";
import { ADMIN_CREDENTIALS } from "./hostile/admin-cases";
import { decodeHtml } from "./hostile/run";
import { startAppServer, type AppServer } from "./harness/app-server";
import { send, urlencoded } from "./harness/http";

// Honeypot and per-IP rate limit of the contact form, behind a trusted reverse proxy
// (TRUST_PROXY=loopback), with a limit of 3 per window for the test.
let app: AppServer;
const LIMIT = 3;

const valid = (n: number) =>
  urlencoded({
    name: `Visiteur ${n}`,
    email: `visiteur${n}@example.fr`,
    phone: "",
    message: "Bonjour",
    offer: "",
  });

function post(body: string, headers: [string, string][] = []) {
  return send(app.baseUrl, {
    method: "POST",
    path: "/contact",
    headers: [["Content-Type", "application/x-www-form-urlencoded"], ...headers],
    body,
  });
}

async function storedCount(): Promise<number> {
  const [{ n }] = await app.database.db.select({ n: count() }).from(contactRequests);
  return n;
}

describe(`abuse: honeypot and rate limit (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    app = await startAppServer({
      TRUST_PROXY: "loopback",
      CONTACT_RATE_LIMIT: String(LIMIT),
      CONTACT_RATE_WINDOW_SECONDS: "600",
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("renders the honeypot off-screen, out of the tab order and hidden from assistive technology", async () => {
    const page = await send(app.baseUrl, { path: "/contact" });
    const wrapper =
      /<div aria-hidden="true" class="([^"]*)"><label for="website">[^<]*<\/label><input ([^>]*)\/?><\/div>/.exec(
        page.text,
      );
    expect(wrapper, "honeypot markup").not.toBeNull();
    expect(wrapper![1]).toContain("-left-[10000px]");
    expect(wrapper![2]).toContain('tabindex="-1"');
    expect(wrapper![2]).toMatch(/autocomplete="off"/i);
    expect(wrapper![2]).toContain('name="website"');
  });

  it("answers a filled honeypot like a success, keeps it as suspected spam and queues no mail", async () => {
    const before = await storedCount();
    const answer = await post(`${valid(1)}&website=${encodeURIComponent("https://spam.example")}`, [
      ["X-Forwarded-For", "198.51.100.1"],
    ]);
    // Answered like any stored request: 303 to the confirmation with a reference.
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(/^\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/);
    expect(await storedCount()).toBe(before + 1);
    const [row] = await app.database.db
      .select()
      .from(contactRequests)
      .orderBy(desc(contactRequests.id))
      .limit(1);
    expect([row.email, row.suspectedSpam]).toEqual(["visiteur1@example.fr", true]);
    const mails = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.contactRequestId, row.id));
    expect(mails).toEqual([]);
  });

  it("refuses the submission after the limit with a French 429, per client address", async () => {
    const ip = "198.51.100.20";
    const before = await storedCount();
    for (let i = 0; i < LIMIT; i++) {
      const ok = await post(valid(10 + i), [["X-Forwarded-For", ip]]);
      expect(ok.status).toBe(303);
    }
    const refused = await post(valid(99), [["X-Forwarded-For", ip]]);
    expect(refused.status).toBe(429);
    const text = decodeHtml(refused.text);
    expect(text).toContain("Trop de messages envoyés");
    expect(text).toMatch(/Veuillez réessayer dans 10 minutes\./);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(590);
    // What the visitor typed is kept in the form.
    expect(text).toContain("visiteur99@example.fr");
    expect(await storedCount()).toBe(before + LIMIT);

    // Another address is not affected.
    expect((await post(valid(100), [["X-Forwarded-For", "198.51.100.21"]])).status).toBe(303);
  });

  it("counts the address the trusted proxy saw, not one the client put in X-Forwarded-For", async () => {
    const real = "198.51.100.30";
    for (let i = 0; i < LIMIT; i++) {
      expect((await post(valid(200 + i), [["X-Forwarded-For", real]])).status).toBe(303);
    }
    // The proxy appends the address it saw: a forged first entry changes nothing.
    const forged = await post(valid(300), [["X-Forwarded-For", `203.0.113.9, ${real}`]]);
    expect(forged.status).toBe(429);
  });

  it("does not count invalid submissions against a visitor", async () => {
    const ip = "198.51.100.40";
    for (let i = 0; i < LIMIT + 2; i++) {
      const invalid = await post(urlencoded({ name: "", email: "x", message: "" }), [
        ["X-Forwarded-For", ip],
      ]);
      expect(invalid.status).toBe(400);
    }
    expect((await post(valid(400), [["X-Forwarded-For", ip]])).status).toBe(303);
  });

  it("marks cookies Secure when the trusted proxy says the visitor used HTTPS", async () => {
    await createAdmin(app.database.db, ADMIN_CREDENTIALS);
    const signIn = (proto: string) =>
      send(app.baseUrl, {
        method: "POST",
        path: "/auth",
        headers: [
          ["Content-Type", "application/x-www-form-urlencoded"],
          ["X-Forwarded-Proto", proto],
          ["X-Forwarded-For", `198.51.100.${proto === "https" ? 90 : 91}`],
        ],
        body: new URLSearchParams(ADMIN_CREDENTIALS).toString(),
      });
    const secure = await signIn("https");
    expect(secure.status).toBe(302);
    expect(secure.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const cookies = secure.headers["set-cookie"] ?? [];
    // Over HTTPS the session cookie takes the __Host- prefix (bound to this host, path /).
    expect(cookies.some((c) => c.startsWith("__Host-admin_session="))).toBe(true);
    for (const cookie of cookies) expect(cookie).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    const plain = await signIn("http");
    expect(plain.status).toBe(302);
    for (const cookie of plain.headers["set-cookie"] ?? []) expect(cookie).not.toMatch(/Secure/);
  });

  it("sends HSTS when the trusted proxy says the visitor used HTTPS, and only then", async () => {
    const https = await send(app.baseUrl, { path: "/", headers: [["X-Forwarded-Proto", "https"]] });
    expect(https.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const http = await send(app.baseUrl, { path: "/", headers: [["X-Forwarded-Proto", "http"]] });
    expect(http.headers["strict-transport-security"]).toBeUndefined();
  });
});
