import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_OFFERS } from "../../app/features/setup/seed.server";
import { JOURNAL_UNPROTECTED } from "../../app/features/setup/startup.server";
import { createPostgresDatabase, type TestDatabase, withClient } from "../support/database";
import { hasPostgres } from "./harness/use-postgres";
import { VALID_OFFER_FORM } from "../support/offers";
import { findFreePort } from "./harness/ports";
import { ROOT, type ServerProcess, startServer } from "./harness/server-process";
import { clientAddress, postContact } from "./support";

/**
 * Two server processes on one PostgreSQL database, as behind a load
 * balancer: started at the same moment on an empty database, then used alternately.
 */

const ADMIN = { email: "admin@example.fr", password: "deux instances, un mot de passe" };
const migrationCount = (
  JSON.parse(readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

/** The offer slugs a listing page links to, in page order. */
async function listedSlugs(base: string, query = ""): Promise<string[]> {
  const res = await fetch(`${base}/offers${query}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const slugs = [...html.matchAll(/href="\/offers\/([a-z0-9-]+)"/g)].map((m) => m[1]);
  return slugs.filter((s, i) => slugs.indexOf(s) === i);
}

/** The offers the contact form proposes (value and label), as a visitor sees them. */
async function contactChoices(base: string): Promise<string[]> {
  const html = await (await fetch(`${base}/contact`)).text();
  const choices = [...html.matchAll(/<option value="(\d+)"[^>]*>(.*?)<\/option>/g)].map(
    (m) => `${m[1]} ${m[2].replaceAll("<!-- -->", "")}`,
  );
  expect(choices.length).toBeGreaterThan(0);
  return choices;
}

const OFFER_FORM = { ...VALID_OFFER_FORM, description: "Créée pendant le test à deux instances." };

/** A form post as the site's own page would send it (Origin of the instance), redirects not followed. */
function postForm(
  server: ServerProcess,
  path: string,
  fields: Record<string, string>,
  cookie = "",
  clientIp = clientAddress(9),
): Promise<Response> {
  return fetch(`${server.base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.base,
      "X-Forwarded-For": clientIp,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

function sessionCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="));
  return set ? set.split(";")[0] : "";
}

describe.skipIf(!hasPostgres)("two instances on one PostgreSQL database", () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await createPostgresDatabase("two");
    // Both at the same moment on the empty database: one migrates and seeds under the lock, the
    // other waits for it and then finds everything done.
    const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    a = startServer({ port: await findFreePort(), databaseUrl: database.url, env });
    b = startServer({ port: await findFreePort(), databaseUrl: database.url, env });
    await Promise.all([a.ready(), b.ready()]);
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop("SIGTERM"), b?.stop("SIGTERM")]);
    await database?.drop();
  });

  it("start-up race: migrations applied once, demo offers loaded once", async () => {
    const { migrations, offers, slugs } = await withClient(database.url, async (c) => ({
      migrations: (await c.query("select 1 from drizzle.__drizzle_migrations")).rowCount,
      offers: (await c.query("select 1 from offers")).rowCount,
      slugs: (await c.query("select distinct slug from offers")).rowCount,
    }));
    const seeders = [a, b].filter(
      (s) => s.logLines("demo offers loaded into the empty database").length > 0,
    );
    const readyAt = [a, b].map((s) => Date.parse(String(s.logLines("database ready")[0]?.time)));
    console.log(
      `start-up race: 2 instances started together (ready ${Math.abs(readyAt[0] - readyAt[1])} ms ` +
        `apart); ${migrations} of ${migrationCount} ` +
        `migration(s) recorded, demo offers loaded by ${seeders.length} instance, ` +
        `${offers} offers (${DEMO_OFFERS.length} expected)`,
    );
    expect(migrations).toBe(migrationCount);
    expect(seeders).toHaveLength(1);
    expect(offers).toBe(DEMO_OFFERS.length);
    expect(slugs).toBe(DEMO_OFFERS.length);
    for (const s of [a, b]) expect(s.logLines("server failed to start")).toHaveLength(0);
    // One role (no MIGRATION_DATABASE_URL): each instance says the journal is not protected.
    for (const s of [a, b]) expect(s.logLines(JOURNAL_UNPROTECTED.oneRole)).toHaveLength(1);
  });

  it("serves the same catalogue from both instances", async () => {
    for (const query of ["", "?type=loa", "?q=epyc", "?min=100&max=500&engagement=true"]) {
      const [fromA, fromB] = await Promise.all([
        listedSlugs(a.base, query),
        listedSlugs(b.base, query),
      ]);
      expect(fromA.length).toBeGreaterThan(0);
      expect(fromB).toEqual(fromA);
    }
    const slugs = await listedSlugs(a.base);
    for (const [i, slug] of slugs.entries()) {
      const server = i % 2 === 0 ? b : a;
      expect((await fetch(`${server.base}/offers/${slug}`)).status).toBe(200);
    }
    expect(await contactChoices(b.base)).toEqual(await contactChoices(a.base));
  });

  it("a contact request sent to one instance is stored once, whichever answers next", async () => {
    const choices = await contactChoices(b.base);
    const offerId = choices[0].split(" ")[0];
    const message = `two-instances ${Date.now()}`;
    expect(
      await postContact(
        a.base,
        { name: "Visiteur", email: "visiteur@example.fr", message, offer: offerId },
        clientAddress(7),
      ),
    ).toBe(200);
    const rows = await withClient(
      database.url,
      async (c) =>
        (
          await c.query<{ offer_id: number; status: string }>(
            "select offer_id, status from contact_requests where message = $1",
            [message],
          )
        ).rows,
    );
    expect(rows).toEqual([{ offer_id: Number(offerId), status: "pending" }]);
    // Alternating requests of one visitor between the instances all succeed.
    for (const [i, server] of [b, a, b, a].entries()) {
      expect(
        await postContact(
          server.base,
          { name: "Visiteur", email: "visiteur@example.fr", message: `${message} #${i}` },
          clientAddress(7),
        ),
      ).toBe(200);
    }
  });
  describe("administration across instances", () => {
    let cookie = "";

    it("the first administrator was created once", async () => {
      const users = await withClient(database.url, async (c) =>
        (await c.query<{ email: string }>("select email from users")).rows.map((r) => r.email),
      );
      expect(users).toEqual([ADMIN.email]);
    });

    it("signs in on one instance and uses the admin area on the other", async () => {
      const res = await postForm(a, "/auth", { email: ADMIN.email, password: ADMIN.password });
      expect(res.status).toBe(302);
      cookie = sessionCookieOf(res);
      expect(cookie).toMatch(/^admin_session=/);
      for (const [server, path] of [
        [b, "/admin"],
        [a, "/admin/offers"],
        [b, "/admin/contacts"],
      ] as const) {
        const page = await fetch(`${server.base}${path}`, {
          headers: { cookie },
          redirect: "manual",
        });
        expect(page.status, `${server.base}${path}`).toBe(200);
        expect(await page.text()).toContain(ADMIN.email);
      }
    });

    it("both instances create offers with the same title at the same moment: all succeed, slugs distinct", async () => {
      const title = `Serveur Concurrent ${Date.now()}`;
      const answers = await Promise.all(
        [a, b, a, b, a, b].map((server, i) =>
          postForm(
            server,
            "/admin/offers/new",
            { ...OFFER_FORM, title, reference: `CONC-${i}` },
            cookie,
          ),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([302, 302, 302, 302, 302, 302]);
      const slugs = await withClient(database.url, async (c) =>
        (
          await c.query<{ slug: string }>(
            "select slug from offers where title = $1 order by slug",
            [title],
          )
        ).rows.map((r) => r.slug),
      );
      const base = slugs[0];
      console.log(
        `concurrent creation on 2 instances: 6 requests, 6 offers, slugs ${slugs.join(", ")}`,
      );
      expect(new Set(slugs).size).toBe(6);
      expect(slugs.sort()).toEqual([base, ...[1, 2, 3, 4, 5].map((n) => `${base}-${n}`)].sort());
      // Both public catalogues show them at once (nothing cached per process).
      for (const server of [a, b]) {
        expect((await listedSlugs(server.base, `?q=${encodeURIComponent(title)}`)).sort()).toEqual(
          [...slugs].sort(),
        );
      }
    });

    it("a contact request sent to one instance is listed by the other's /admin/contacts", async () => {
      const name = `Prospect ${Date.now()}`;
      expect(
        await postContact(
          a.base,
          { name, email: "prospect@example.fr", message: "Listée par l'autre instance ?" },
          clientAddress(8),
        ),
      ).toBe(200);
      const page = await fetch(`${b.base}/admin/contacts`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(name);
    });

    it("sign-in attempts are counted across instances", async () => {
      const email = "intrus@example.fr";
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const server = i % 2 === 0 ? a : b;
        const res = await postForm(
          server,
          "/auth",
          { email, password: "mauvais mot de passe" },
          "",
          clientAddress(300),
        );
        statuses.push(res.status);
      }
      // Five failures per e-mail and address, wherever they land; then both instances refuse.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    });

    it("signing out on one instance ends the session on the other", async () => {
      const out = await postForm(b, "/admin/logout", {}, cookie);
      expect(out.status).toBe(302);
      const page = await fetch(`${a.base}/admin`, { headers: { cookie }, redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/auth/);
    });
  });
});
