import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as personalData from "../../app/routes/admin/personal-data";
import * as personalDataExport from "../../app/routes/resources/admin-personal-data-export";
import { logger } from "../../app/platform/log.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { addressToken, type PersonalData } from "../../app/features/privacy/personal-data.server";
import { purgeContactRequests } from "../../app/features/privacy/retention.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import {
  auditJournal,
  contactRequests,
  quotes,
  signedDocuments,
} from "../../app/platform/schema.server";
import { call, makeRequest, signedInAdmin } from "../support/admin";
import { contactTables, countsAndRecount, insertRequest } from "../support/contacts";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";
import { buildOffer, insertOffers } from "../support/offers";

const database = useTestDatabase();
let cookie: string;
let actor: { id: number; email: string; role: "admin" };

beforeAll(async () => {
  const signedIn = await signedInAdmin(database.db);
  cookie = signedIn.cookie;
  actor = { id: signedIn.admin.id, email: signedIn.admin.email, role: "admin" };
}, 60_000);

/** Jean wrote three times, with his address typed two ways; Marie once. */
async function seed() {
  const db = database.db;
  return {
    jeanFirst: await insertRequest(db, {
      name: "Jean Dupont",
      email: "Jean.Dupont@Example.fr",
      createdAt: sql`now() - interval '2 months'`,
      notes: [{ body: "Devis envoyé" }, { body: "Rappeler en janvier" }],
      statusChanges: 2,
      mails: 1,
    }),
    jeanSecond: await insertRequest(db, {
      name: "Jean Dupont",
      email: "jean.dupont@example.fr",
      createdAt: sql`now() - interval '1 day'`,
      mails: 1,
    }),
    jeanSpam: await insertRequest(db, {
      name: "J. Dupont",
      email: "JEAN.DUPONT@EXAMPLE.FR",
      spam: true,
    }),
    marie: await insertRequest(db, {
      name: "Marie Martin",
      email: "marie.martin@example.fr",
      notes: [{ body: "Cliente fidèle" }],
      statusChanges: 1,
      mails: 1,
    }),
  };
}

beforeEach(async () => {
  // Signed documents are write-once (no DELETE): TRUNCATE, which only the tables' owner may.
  await database.db.execute(
    sql`truncate contact_requests, offers, signed_documents restart identity cascade`,
  );
});

/**
 * Issue 29: Jeanne's request about an offer, quoted twice (the first replaced), the second
 * accepted from its link; Paul's request quoted too. Returns the two numbers of Jeanne's quotes.
 */
async function seedQuotes() {
  const db = database.db;
  const [{ id: offer }] = await insertOffers(db, [buildOffer(1, { title: "Xeon Pro" })]);
  const request = (name: string, email: string) =>
    createContactRequest(
      {
        name,
        email,
        phone: null,
        message: "Un devis svp",
        offer,
        company: "ACME SAS",
        siren: "732829320",
      },
      db,
    );
  const jeanne = (await request("Jeanne Achat", "Jeanne@Example.fr")).id;
  const paul = (await request("Paul Autre", "paul@example.fr")).id;
  const terms = { validityDays: 30, discounts: [] };
  const replaced = await sendQuote(jeanne, terms, actor, db);
  const kept = await sendQuote(jeanne, terms, actor, db);
  await sendQuote(paul, terms, actor, db);
  if (replaced.kind !== "sent" || kept.kind !== "sent") throw new Error("quotes not sent");
  const [{ id: quoteId }] = await db
    .select({ id: quotes.id })
    .from(quotes)
    .where(eq(quotes.number, kept.number));
  const link = await drawQuoteLink(quoteId, db);
  const answer = { kind: "accept", name: "Jeanne Achat", role: "Acheteuse" } as const;
  const client = { ip: "203.0.113.9", userAgent: "Navigateur de Jeanne" };
  expect(await answerQuote(link!.token, answer, client, db)).toMatchObject({ kind: "accepted" });
  return { jeanne, paul, numbers: [replaced.number, kept.number] };
}

/** What the admin page's loader answers for `query` (the raw query string). */
function lookup(query: string, withCookie = true) {
  return call(
    personalData.loader,
    makeRequest(`/admin/personal-data${query}`, { cookie: withCookie ? cookie : undefined }),
  );
}

function erase(form: Record<string, string>, options: { cookie?: string } = {}) {
  return call(
    personalData.action,
    makeRequest("/admin/personal-data", {
      form,
      cookie: options.cookie ?? cookie,
    }),
  );
}

/** Log lines written while `fn` runs (at info level). */
async function captureLog<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  // The logger's level is fixed when it is made (tests/support/admin.ts asks for warn).
  const level = logger.level;
  logger.level = "info";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    return { result: await fn(), lines };
  } finally {
    process.stdout.write = write;
    logger.level = level;
  }
}

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
        cookie,
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
      request: makeRequest("/admin/personal-data/export?email=nope", { cookie }),
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

  it("exports the quotes of the person's requests, with the acceptance record", async () => {
    const { numbers } = await seedQuotes();
    const page = await lookup("?email=jeanne%40example.fr");
    const result = (page.data as { result: PersonalData }).result;
    expect(result.counts).toMatchObject({ requests: 1, quotes: 2 });
    expect(result.requests[0].quotes.map((q) => [q.number, q.state])).toEqual([
      [numbers[0], "replaced"],
      [numbers[1], "accepted"],
    ]);
    const response = (await personalDataExport.loader({
      request: makeRequest("/admin/personal-data/export?email=jeanne%40example.fr", { cookie }),
      params: {},
      context: { requestId: "test", cspNonce: "", clientIp: "203.0.113.7" },
    } as never)) as Response;
    const text = await response.text();
    const [request] = JSON.parse(text).contactRequests;
    expect(request.quotes).toEqual([
      {
        number: numbers[0],
        issuedAt: expect.any(String),
        sentAt: expect.any(String),
        validUntil: expect.any(String),
        status: "replaced",
        accepted: null,
        declined: null,
      },
      {
        number: numbers[1],
        issuedAt: expect.any(String),
        sentAt: expect.any(String),
        validUntil: expect.any(String),
        status: "accepted",
        accepted: {
          at: expect.any(String),
          name: "Jeanne Achat",
          role: "Acheteuse",
          ipAddress: "203.0.113.9",
          userAgent: "Navigateur de Jeanne",
          pdfSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        declined: null,
      },
    ]);
    const validity = new Date(request.quotes[1].validUntil).getTime();
    expect(validity - new Date(request.quotes[1].sentAt).getTime()).toBe(30 * 86_400_000);
    // Issue 40: the quote she signed, its record, and that its PDF is kept (not the bytes).
    const [signed] = JSON.parse(text).signedDocuments;
    expect(signed).toMatchObject({
      kind: "quote",
      reference: numbers[1],
      seller: { legalName: expect.any(String), legalForm: expect.any(String) },
      termsOfSale: { url: expect.stringMatching(/^https?:/) },
      addressedTo: { name: "Jeanne Achat", company: "ACME SAS" },
      acceptance: { name: "Jeanne Achat", role: "Acheteuse", ipAddress: "203.0.113.9" },
      pdf: {
        sha256: request.quotes[1].accepted.pdfSha256,
        available: true,
        bytes: expect.any(Number),
      },
    });
    const years =
      new Date(signed.keptUntil).getUTCFullYear() - new Date(signed.signedAt).getUTCFullYear();
    expect(years).toBe(10);
    expect(text).not.toContain("JVBERi"); // no PDF bytes (base64 of `%PDF`)
    // Neither Paul's quote nor the link's hash.
    expect(text).not.toContain("Paul");
    expect(text).not.toMatch(/tokenHash|token_hash/);
  });

  it("erases the quotes with the request but keeps the signed one, and says so; the journal keeps the numbers", async () => {
    const { paul, numbers } = await seedQuotes();
    const asked = await erase({ intent: "erase", email: "jeanne@example.fr" });
    expect((asked.data as { counts: object }).counts).toMatchObject({
      requests: 1,
      quotes: 2,
      signedDocuments: 1,
    });
    const [signedBefore] = await database.db.select().from(signedDocuments);
    const done = await erase({ intent: "erase", email: "jeanne@example.fr", confirm: "yes" });
    expect(done.status).toBe(302);
    // The address's page again, listing what was kept, under a toast that says it was.
    expect(done.location).toBe("/admin/personal-data?email=jeanne%40example.fr");
    expect(done.headers.get("set-cookie")).toContain("flash=personalDataErasedSignedKept");
    expect(await database.db.select().from(signedDocuments)).toEqual([signedBefore]);
    const after = await lookup("?email=jeanne%40example.fr");
    const kept = (after.data as { result: PersonalData }).result;
    expect(kept.counts).toMatchObject({ requests: 0, quotes: 0, signedDocuments: 1 });
    expect(kept.signedDocuments.map((d) => d.reference)).toEqual([numbers[1]]);
    const left = await database.db
      .select({ request: quotes.contactRequestId, acceptance: quotes.acceptance })
      .from(quotes);
    expect(left).toEqual([{ request: paul, acceptance: null }]);
    const rows = await database.db.execute(sql`select * from quotes`);
    expect(JSON.stringify(rows.rows)).not.toMatch(/Jeanne|203\.0\.113\.9|Navigateur/);
    const [entry] = await database.db
      .select({ target: auditJournal.target })
      .from(auditJournal)
      .where(eq(auditJournal.action, "personal-data-erased"))
      .orderBy(desc(auditJournal.id))
      .limit(1);
    const subject = await addressToken("jeanne@example.fr");
    expect(entry.target).toBe(
      `personne ${subject}, devis ${numbers.join(", ")}, conservés (signés) ${numbers[1]}`,
    );
  });

  it("purges a request's quotes with it; a quote sent or answered is activity that keeps it", async () => {
    const { jeanne, paul } = await seedQuotes();
    // Paul's request last moved four years ago; Jeanne's quote was answered today.
    await database.db
      .update(contactRequests)
      .set({ updatedAt: sql`now() - interval '4 years'` })
      .where(eq(contactRequests.id, paul));
    const purged = await purgeContactRequests({ retentionMonths: 36 }, database.db);
    expect(purged.expired).toMatchObject({ requests: 1, quotes: 1 });
    const left = await database.db.select({ request: quotes.contactRequestId }).from(quotes);
    expect(left.map((q) => q.request)).toEqual([jeanne, jeanne]);
    // Jeanne's request purged too: her signed quote stays, for its own period.
    await database.db
      .update(contactRequests)
      .set({ updatedAt: sql`now() - interval '4 years'` })
      .where(eq(contactRequests.id, jeanne));
    expect(
      (await purgeContactRequests({ retentionMonths: 36 }, database.db)).expired,
    ).toMatchObject({ requests: 1, quotes: 2 });
    expect(await database.db.select({ id: signedDocuments.id }).from(signedDocuments)).toHaveLength(
      1,
    );
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
