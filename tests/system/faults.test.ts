import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeHtml } from "./hostile/run";
import { send, urlencoded, type Answer } from "./harness/http";
import {
  createPostgresInstance,
  postgresBinariesFor,
  type PostgresInstance,
} from "./harness/postgres-instance";
import { findFreePort } from "./harness/ports";
import { startServer, type ServerProcess } from "./harness/server-process";

// Faults against real processes: two instances of the built server on a throwaway PostgreSQL
// server of our own, which the test stops and starts (never the shared cluster).
const available = postgresBinariesFor("fault tests");

const FORM: [string, string] = ["Content-Type", "application/x-www-form-urlencoded"];
const UNAVAILABLE = "Service momentanément indisponible";
/** A well-formed link of a sent quote (no quote has it: the database is asked, then says so). */
const QUOTE_LINK = `/devis/${"q".repeat(43)}`;
const STACK = /\n\s+at \S+ \(.*:\d+:\d+\)/;

let postgres: PostgresInstance;
let a: ServerProcess;
let b: ServerProcess;
let slug: string;
// The first administrator comes from the environment; its password must never reach a log.
const ADMIN_PASSWORD = `mot-de-passe-secret-${Date.now()}`;
const ADMIN_EMAIL = "admin-pannes@example.fr";

async function sql(query: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

function contact(
  server: ServerProcess,
  fields: Record<string, string>,
  ip: string,
): Promise<Answer> {
  return send(server.base, {
    method: "POST",
    path: "/contact",
    headers: [FORM, ["X-Forwarded-For", ip]],
    body: urlencoded({ phone: "", offer: "", ...fields }),
  });
}

/** Log lines of a process, each parsed (every line must be JSON). */
function logLines(server: ServerProcess): Record<string, unknown>[] {
  return server.output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`log line is not JSON: ${line}`);
      }
    });
}

describe.skipIf(!available)("faults on PostgreSQL: errors, outage and recovery", () => {
  beforeAll(async () => {
    postgres = await createPostgresInstance();
    const env = {
      DATABASE_URL: postgres.url,
      TRUST_PROXY: "loopback",
      CONTACT_RATE_LIMIT: "2",
      DATABASE_POOL_MAX: "4",
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    };
    a = await startServer({ port: await findFreePort(), env }).ready();
    b = await startServer({ port: await findFreePort(), env }).ready();
    slug = (await sql("select slug from offers where is_active order by id limit 1")).rows[0].slug;
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    postgres?.destroy();
  });

  it("shares the contact rate limit between instances", async () => {
    const ip = "192.0.2.50";
    const fields = (n: number) => ({
      name: `Limite ${n}`,
      email: `limite${n}@example.fr`,
      message: "Bonjour",
    });
    expect((await contact(a, fields(1), ip)).status).toBe(303);
    expect((await contact(b, fields(2), ip)).status).toBe(303);
    const third = await contact(a, fields(3), ip);
    expect(third.status).toBe(429);
    expect(decodeHtml(third.text)).toContain("Trop de messages envoyés");
    const stored = await sql(
      "select count(*)::int as n from contact_requests where name like 'Limite %'",
    );
    expect(stored.rows[0].n).toBe(2);
  });

  it("answers an unexpected error with a French 500 page showing the logged request id", async () => {
    await sql("alter table offers rename to offers_hidden");
    try {
      const answer = await send(a.base, { path: "/contact" });
      expect(answer.status).toBe(500);
      const text = decodeHtml(answer.text);
      expect(text).toContain("Une erreur inattendue s'est produite");
      const id = answer.headers["x-request-id"] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.text).toMatch(
        new RegExp(`Référence de la requête : <code data-request-id[^>]*>${id}</code>`),
      );
      expect(answer.text).not.toMatch(STACK);
      expect(text).not.toMatch(/offers_hidden|relation|does not exist|postgres|drizzle/i);
      const logged = logLines(a).find((l) => l.requestId === id && l.level === "error");
      expect(logged, "an error log line with the page's request id").toBeDefined();
    } finally {
      await sql("alter table offers_hidden rename to offers");
    }
  });

  it("keeps passwords, session tokens and message bodies out of the logs, even when a write fails", async () => {
    const marker = `corps-secret-${Date.now()}`;
    const email = `${marker}@example.fr`;
    const headers: [string, string][] = [
      FORM,
      ["X-Forwarded-For", "192.0.2.60"],
      ["Cookie", `__session=${marker}-token`],
      ["Authorization", `Bearer ${marker}-bearer`],
    ];
    const body = urlencoded({
      name: marker,
      email,
      phone: "",
      message: `${marker} message`,
      offer: "",
      password: `${marker}-password`,
    });
    expect((await send(a.base, { method: "POST", path: "/contact", headers, body })).status).toBe(
      303,
    );
    // A failing insert: the database error quotes the statement and its parameters.
    await sql(
      "alter table contact_requests add constraint no_markers check (message not like 'corps-secret-%') not valid",
    );
    try {
      const failed = await send(a.base, {
        method: "POST",
        path: "/contact",
        headers: [FORM, ["X-Forwarded-For", "192.0.2.61"]],
        body,
      });
      expect(failed.status).toBe(503);
      expect(decodeHtml(failed.text)).toContain(
        "Une erreur est survenue lors de l'envoi du message.",
      );
    } finally {
      await sql("alter table contact_requests drop constraint no_markers");
    }
    // Sign-in, wrong then right: neither password nor the new session token is logged.
    const signIn = (password: string, ip: string) =>
      send(a.base, {
        method: "POST",
        path: "/auth",
        headers: [FORM, ["X-Forwarded-For", ip]],
        body: urlencoded({ email: ADMIN_EMAIL, password }),
      });
    expect((await signIn(`${marker}-wrong-password`, "192.0.2.62")).status).toBe(401);
    const signedIn = await signIn(ADMIN_PASSWORD, "192.0.2.63");
    expect(signedIn.status).toBe(302);
    const token = /admin_session=([^;]+)/.exec(String(signedIn.headers["set-cookie"]))?.[1];
    expect(token).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));

    const output = a.output;
    expect(output).toContain("contact request failed");
    expect(output).not.toContain(marker);
    expect(output).not.toContain(ADMIN_PASSWORD);
    expect(output).not.toContain(decodeURIComponent(token!));
    expect(output).toContain("signed in");
    logLines(a);
  });

  it("answers 503 while PostgreSQL is down, stays up, and recovers by itself", async () => {
    const pids = [a.child.pid, b.child.pid];
    const signedIn = await send(a.base, {
      method: "POST",
      path: "/auth",
      headers: [FORM, ["X-Forwarded-For", "192.0.2.72"]],
      body: urlencoded({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const session: [string, string] = [
      "Cookie",
      /admin_session=[^;]+/.exec(String(signedIn.headers["set-cookie"]))![0],
    ];
    postgres.stop();
    try {
      for (const server of [a, b]) {
        const health = await send(server.base, { path: "/healthz" });
        expect(health.status).toBe(503);
        expect(JSON.parse(health.text)).toEqual({ status: "unavailable", database: "unreachable" });

        const listing = await send(server.base, { path: "/offers" });
        expect(listing.status).toBe(503);
        expect(decodeHtml(listing.text)).toContain(
          "Erreur lors du chargement des offres. Veuillez réessayer.",
        );

        for (const path of [`/offers/${slug}`, "/contact"]) {
          const page = await send(server.base, { path });
          expect(page.status, path).toBe(503);
          const text = decodeHtml(page.text);
          expect(text, path).toContain(UNAVAILABLE);
          expect(page.text, path).not.toMatch(STACK);
          expect(page.headers["retry-after"], path).toBe("10");
        }

        const post = await contact(
          server,
          { name: "Panne", email: "panne@example.fr", message: "Bonjour" },
          "192.0.2.70",
        );
        expect(post.status).toBe(503);
        expect(post.headers["retry-after"]).toBe("10");
        // The action cannot store it: the form comes back with what was typed, and says to retry.
        const form = decodeHtml(post.text);
        expect(form).toContain("Votre saisie est conservée : veuillez réessayer");
        expect(post.text).toMatch(/name="name"[^>]*value="Panne"|value="Panne"[^>]*name="name"/);

        // A quote's link (issue 29): its page and its PDF say the same, in French, not 404 or 500.
        for (const path of [QUOTE_LINK, `${QUOTE_LINK}/pdf`]) {
          const answer = await send(server.base, { path });
          expect(answer.status, path).toBe(503);
          expect(decodeHtml(answer.text), path).toContain(UNAVAILABLE);
          expect(answer.text, path).not.toMatch(STACK);
          expect(answer.headers["retry-after"], path).toBe("10");
        }

        // The administration too, with a live session (checked against the database).
        const admin = await send(server.base, { path: "/admin/contacts", headers: [session] });
        expect(admin.status).toBe(503);
        expect(decodeHtml(admin.text)).toContain(UNAVAILABLE);

        // Sign-out as a form post without JavaScript: a French page, not a bare data answer.
        const signOut = await send(server.base, {
          method: "POST",
          path: "/admin/logout",
          headers: [FORM, session],
          body: "",
        });
        expect(signOut.status).toBe(503);
        expect(signOut.headers["content-type"]).toMatch(/^text\/html/);
        expect(decodeHtml(signOut.text)).toContain("Erreur lors de la déconnexion");
        expect(signOut.text).not.toMatch(STACK);

        // The home page needs no database.
        expect((await send(server.base, { path: "/" })).status).toBe(200);
        expect(server.running).toBe(true);
      }
    } finally {
      postgres.start();
    }

    // Back without restarting the application.
    for (const server of [a, b]) {
      const deadline = Date.now() + 30_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await send(server.base, { path: "/healthz" })).status;
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe(200);
      expect((await send(server.base, { path: "/offers" })).status).toBe(200);
      expect((await send(server.base, { path: `/offers/${slug}` })).status).toBe(200);
      expect((await send(server.base, { path: "/contact" })).status).toBe(200);
      // A link no quote has: not found, once the database answers again.
      expect((await send(server.base, { path: QUOTE_LINK })).status).toBe(404);
      // The session lives in the database: still signed in, on either instance.
      const admin = await send(server.base, { path: "/admin/contacts", headers: [session] });
      expect(admin.status).toBe(200);
    }
    const after = await contact(
      b,
      { name: "Retour", email: "retour@example.fr", message: "Bonjour" },
      "192.0.2.71",
    );
    expect(after.status).toBe(303);
    expect(
      (await sql("select count(*)::int as n from contact_requests where name = 'Retour'")).rows[0]
        .n,
    ).toBe(1);
    expect(
      (await sql("select count(*)::int as n from contact_requests where name = 'Panne'")).rows[0].n,
    ).toBe(0);
    expect([a.child.pid, b.child.pid]).toEqual(pids);
    expect(a.running && b.running).toBe(true);
    logLines(a);
    logLines(b);
  });
});
