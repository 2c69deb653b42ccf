import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as personalData from "../../app/routes/admin/personal-data";
import * as personalDataExport from "../../app/routes/resources/admin-personal-data-export";
import { addressToken, type PersonalData } from "../../app/features/privacy/personal-data.server";
import { call, makeRequest } from "../support/admin";
import { contactTables, countsAndRecount } from "../support/contacts";
import { testDatabaseKind } from "../support/database";
import { captureLog, usePersonalDataSuite } from "../support/personal-data-suite";

// One person's data: found, exported, erased (their quotes: personal-data-quotes.test.ts).
const { database, session, seed, lookup, erase } = usePersonalDataSuite();

describe(`personal data of one person (${testDatabaseKind})`, () => {
  it("lists everything held about an address, whatever its case", async () => {
    const ids = await seed();
    const page = await lookup("?email=%20jean.DUPONT%40example.FR%20");
    expect(page.status).toBe(200);
    // Private page: the route's headers (applied by React Router to every answer of the page).
    expect(new Headers(personalData.headers({} as never)).get("cache-control")).toBe("no-store");
    const data = page.data as { email: string; result: PersonalData };
    expect(data.email).toBe("jean.DUPONT@example.FR");
    const result = data.result;
    expect(result.counts).toEqual({
      requests: 3,
      notes: 2,
      statusChanges: 2,
      mails: 2,
      quotes: 0,
      messages: 0,
      documents: 0,
      alerts: 0,
      savedSearches: 0,
      signedDocuments: 0,
    });
    expect(result.requests.map((r) => r.id)).toEqual([ids.jeanSpam, ids.jeanSecond, ids.jeanFirst]);
    const first = result.requests.find((r) => r.id === ids.jeanFirst)!;
    expect(first.notes.map((n) => n.body)).toEqual(["Devis envoyé", "Rappeler en janvier"]);
    expect(first.statusChanges.map((c) => `${c.fromStatus}>${c.toStatus}`)).toEqual([
      "pending>in_progress",
      "in_progress>completed",
    ]);
    expect(first.mails.map((m) => m.status)).toEqual(["pending"]);
    expect(JSON.stringify(result)).not.toContain("Marie");
  });

  it("says when nothing is held, and refuses a bad address with a French message (400)", async () => {
    await seed();
    const none = await lookup("?email=personne%40example.fr");
    expect(none.status).toBe(200);
    expect((none.data as { result: { counts: unknown } }).result.counts).toEqual({
      requests: 0,
      notes: 0,
      statusChanges: 0,
      quotes: 0,
      messages: 0,
      documents: 0,
      mails: 0,
      alerts: 0,
      savedSearches: 0,
      signedDocuments: 0,
    });
    const empty = await lookup("");
    expect(empty.data).toEqual({ email: "", error: null, result: null });
    for (const [query, message] of [
      ["?email=jean.dupont", "Veuillez saisir une adresse e-mail valide."],
      ["?email=", "Veuillez saisir l'adresse e-mail de la personne concernée."],
      [`?email=${"a".repeat(300)}%40example.fr`, "Veuillez saisir une adresse e-mail valide."],
    ] as const) {
      const bad = await lookup(query);
      expect(bad.status).toBe(400);
      expect((bad.data as { error: string }).error).toBe(message);
    }
  });

  it("exports it as a JSON file: the person's own data, not the administrators'", async () => {
    const ids = await seed();
    // Given to a salesperson, then taken back: the person learns when, not to whom.
    await database.db.execute(sql`
      insert into contact_owner_changes (contact_request_id, from_owner_email, to_owner_email, author_email, created_at)
      values (${ids.jeanFirst}, null, 'commercial@example.fr', 'commercial@example.fr', now() - interval '2 days'),
             (${ids.jeanFirst}, 'commercial@example.fr', null, 'commercial@example.fr', now() - interval '1 day')`);
    const response = (await personalDataExport.loader({
      request: makeRequest("/admin/personal-data/export?email=JEAN.dupont%40example.fr", {
        cookie: session.cookie,
      }),
      params: {},
      context: { requestId: "test", cspNonce: "", clientIp: "203.0.113.7" },
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="donnees-personnelles-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = await response.text();
    const document = JSON.parse(text);
    expect(document.contactRequests[2].ownerChanges).toEqual([
      { assigned: true, at: expect.any(String) },
      { assigned: false, at: expect.any(String) },
    ]);
    expect(document.format).toBe("personal-data-export/1");
    expect(document.email).toBe("JEAN.dupont@example.fr");
    expect(document.controller).toEqual({
      name: "ServeurPro SAS (exemple)",
      address: "1 rue de l'Exemple, 75000 Paris, France",
      email: "contact@example.fr",
    });
    expect(document.contactRequests.map((r: { id: number }) => r.id)).toEqual([
      ids.jeanSpam,
      ids.jeanSecond,
      ids.jeanFirst,
    ]);
    const first = document.contactRequests[2];
    expect(first).toMatchObject({
      name: "Jean Dupont",
      email: "Jean.Dupont@Example.fr",
      phone: "06 12 34 56 78",
      message: "Message de Jean Dupont\nsur deux lignes.",
      offer: null,
      status: "pending",
      suspectedSpam: false,
      notes: [{ body: "Devis envoyé" }, { body: "Rappeler en janvier" }],
      statusChanges: [
        { from: "pending", to: "in_progress" },
        { from: "in_progress", to: "completed" },
      ],
      mails: [{ kind: "contact_notification", status: "pending", sentAt: null }],
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    expect(document.contactRequests[0].suspectedSpam).toBe(true);
    // Other people: neither Marie nor the administrators who wrote the notes.
    expect(text).not.toContain("Marie");
    expect(text).not.toContain("commercial@example.fr");
  });

  it("the export refuses a bad address (400, French, no-store)", async () => {
    const response = (await personalDataExport.loader({
      request: makeRequest("/admin/personal-data/export?email=nope", { cookie: session.cookie }),
      params: {},
      context: { requestId: "test", cspNonce: "", clientIp: "203.0.113.7" },
    } as never)) as Response;
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("Veuillez saisir une adresse e-mail valide.\n");
  });

  it("asks for confirmation first, then erases exactly one person's data in one go", async () => {
    const ids = await seed();
    const before = await contactTables(database.db);

    // Without confirm=yes: the confirmation step, with what would go, and nothing changed.
    const asked = await erase({ intent: "erase", email: "jean.dupont@example.fr" });
    expect(asked.status).toBe(200);
    expect(asked.data).toEqual({
      status: "confirm",
      email: "jean.dupont@example.fr",
      counts: {
        requests: 3,
        notes: 2,
        statusChanges: 2,
        mails: 2,
        quotes: 0,
        messages: 0,
        documents: 0,
        alerts: 0,
        savedSearches: 0,
        signedDocuments: 0,
      },
    });
    expect(await contactTables(database.db)).toEqual(before);

    const { result: done, lines } = await captureLog(() =>
      erase({ intent: "erase", email: "Jean.Dupont@example.fr", confirm: "yes" }),
    );
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/personal-data");
    expect(done.headers.get("set-cookie")).toContain("flash=personalDataErased");

    const after = await contactTables(database.db);
    const marieOnly = <T extends { id?: number; contactRequestId?: number | null }>(
      rows: T[],
      key: "id" | "contactRequestId",
    ) => rows.filter((row) => row[key] === ids.marie);
    expect(after.requests).toEqual(marieOnly(before.requests, "id"));
    expect(after.notes).toEqual(marieOnly(before.notes, "contactRequestId"));
    expect(after.statusChanges).toEqual(marieOnly(before.statusChanges, "contactRequestId"));
    expect(after.mails).toEqual(marieOnly(before.mails, "contactRequestId"));
    const { counters, recount } = await countsAndRecount(database.db);
    expect(counters).toEqual({ "status:pending": 1 });
    expect(counters).toEqual(recount);

    // The log says that it happened and how much, never who.
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "personal data erased");
    expect(line).toMatchObject({
      level: "info",
      requests: 3,
      notes: 2,
      statusChanges: 2,
      mails: 2,
      subject: await addressToken("jean.dupont@example.fr"),
    });
    expect(lines.join("").toLowerCase()).not.toContain("dupont");

    // Erasing again finds nothing and says so the same way.
    const again = await erase({ intent: "erase", email: "jean.dupont@example.fr", confirm: "yes" });
    expect(again.status).toBe(302);
    expect(await contactTables(database.db)).toEqual(after);
  });

  it("refuses a bad erasure form with a French message (400) and changes nothing", async () => {
    await seed();
    const before = await contactTables(database.db);
    const cases: [Record<string, string>, string][] = [
      [{ intent: "erase", email: "pas-une-adresse", confirm: "yes" }, "valide"],
      [{ intent: "erase", confirm: "yes" }, "Veuillez saisir l'adresse e-mail"],
      [{ intent: "delete", email: "jean.dupont@example.fr", confirm: "yes" }, "Requête invalide"],
      [{ intent: "erase", email: "jean.dupont@example.fr", confirm: "oui" }, ""],
    ];
    for (const [form, message] of cases) {
      const outcome = await erase(form);
      expect(outcome.status).toBe(400);
      expect((outcome.data as { error: string }).error).toContain(message);
    }
    expect(await contactTables(database.db)).toEqual(before);
  });

  it("the erasure token is stable per address, case-insensitive, and reveals nothing", async () => {
    const token = await addressToken("Jean.Dupont@Example.fr");
    expect(token).toMatch(/^[0-9a-f]{16}$/);
    expect(await addressToken("jean.dupont@example.fr")).toBe(token);
    expect(await addressToken("marie.martin@example.fr")).not.toBe(token);
  });
});

describe(`personal data guards (${testDatabaseKind})`, () => {
  it("sends a visitor without a session to sign in, for the page and the export", async () => {
    const page = await lookup("?email=jean.dupont%40example.fr", false);
    expect(page.status).toBe(302);
    expect(page.location).toBe(
      "/auth?redirectTo=%2Fadmin%2Fpersonal-data%3Femail%3Djean.dupont%2540example.fr",
    );
    const file = await call(
      personalDataExport.loader,
      makeRequest("/admin/personal-data/export?email=jean.dupont%40example.fr"),
    );
    expect(file.status).toBe(302);
    expect(file.location).toMatch(/^\/auth\?redirectTo=%2Fadmin%2Fpersonal-data%2Fexport/);
  });

  // From another site: refused at the HTTP layer (tests/system/cross-site.test.ts).
  it("refuses an erasure without a session (401)", async () => {
    await seed();
    const before = await contactTables(database.db);
    const form = { intent: "erase", email: "jean.dupont@example.fr", confirm: "yes" };
    expect((await erase(form, { cookie: "admin_session=forged" })).status).toBe(401);
    expect(await contactTables(database.db)).toEqual(before);
  });
});
