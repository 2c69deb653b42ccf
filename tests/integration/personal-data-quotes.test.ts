import { desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as personalDataExport from "../../app/routes/resources/admin-personal-data-export";
import { addressToken, type PersonalData } from "../../app/features/privacy/personal-data.server";
import { purgeContactRequests } from "../../app/features/privacy/retention.server";
import {
  auditJournal,
  contactRequests,
  quotes,
  signedDocuments,
} from "../../app/platform/schema.server";
import { makeRequest } from "../support/admin";
import { testDatabaseKind } from "../support/database";
import { usePersonalDataSuite } from "../support/personal-data-suite";

// One person's quotes in their data: exported, erased or kept when signed, purged (issue 29).
const { database, session, seedQuotes, lookup, erase } = usePersonalDataSuite();

describe(`personal data: the quotes (${testDatabaseKind})`, () => {
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
      request: makeRequest("/admin/personal-data/export?email=jeanne%40example.fr", {
        cookie: session.cookie,
      }),
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
});
