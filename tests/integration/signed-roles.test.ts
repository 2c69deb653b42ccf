import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import {
  openPostgres,
  setCurrentDatabase,
  type Database,
  type DatabaseHandle,
} from "../../app/platform/db.server";
import { erasePersonalData } from "../../app/features/privacy/personal-data.server";
import { quotes, signedDocuments, users } from "../../app/platform/schema.server";
import {
  purgeSignedDocuments,
  recordSignedDocument,
} from "../../app/platform/signed-documents.server";
import { prepareDatabaseWhenReachable } from "../../app/features/setup/startup.server";
import { testContext } from "../support/admin";
import { createTwoRoleDatabase, testDatabaseKind, type TwoRoleDatabase } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";

// Signed quotes with two roles on PostgreSQL (issue 40), as the journal (journal-roles.test.ts):
// the owner migrates and grants DATABASE_URL's role only INSERT and SELECT on signed_documents;
// the server accepts a quote as its role, and can then neither change nor delete what was signed,
// nor shorten its retention; an erasure leaves it and says so.
vi.hoisted(() => {
  process.env.SEED_DEMO = "false";
  process.env.ADMIN_EMAIL = "admin@example.fr";
  process.env.ADMIN_PASSWORD = "correct horse battery staple";
});

describe.skipIf(testDatabaseKind !== "postgres")("signed quotes with two roles (postgres)", () => {
  let database: TwoRoleDatabase;
  let handle: DatabaseHandle;
  let number: string;

  beforeAll(async () => {
    database = await createTwoRoleDatabase("signed");
    handle = await openPostgres(database.url, { migrationUrl: database.migrationUrl });
    expect(await prepareDatabaseWhenReachable(handle, () => false)).toBe(true);

    // As the server's role: a request, its quote sent, accepted by the buyer's link.
    const db = handle.db;
    const [admin] = await db.select().from(users).where(eq(users.email, "admin@example.fr"));
    const actor = { id: admin.id, email: admin.email, role: "admin" as const };
    const [{ id: offer }] = await insertOffers(db, [buildOffer(1, { title: "Xeon signé" })]);
    const { id } = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Un devis svp",
        offer,
        company: "ACME SAS",
        siren: "732829320",
      },
      db,
    );
    const sent = await sendQuote(id, { validityDays: 30, discounts: [] }, actor, db);
    if (sent.kind !== "sent") throw new Error(`not sent: ${sent.kind}`);
    number = sent.number;
    const [quote] = await db.select().from(quotes).where(eq(quotes.number, number));
    const link = (await drawQuoteLink(quote.id, db))!;
    const answer = { kind: "accept", name: "Jeanne Achat", role: "Gérante" } as const;
    const client = { ip: "203.0.113.9", userAgent: "Vitest" };
    expect(await answerQuote(link.token, answer, client, db)).toMatchObject({ kind: "accepted" });
  });

  afterAll(async () => {
    setCurrentDatabase(undefined);
    await handle?.close();
    await database?.drop();
  });

  /** The SQLSTATE and message a statement of `db` fails with, or "ok". */
  const outcome = (run: Promise<unknown>) =>
    run.then(
      () => "ok",
      (error: Error & { cause?: { code?: string; message: string } }) =>
        `${error.cause?.code ?? "?"} ${error.cause?.message ?? error.message}`,
    );
  const signedRows = (db: Database) => db.select().from(signedDocuments);

  it("the server's role cannot update, delete, truncate, alter or drop a signed quote", async () => {
    const [before] = await signedRows(handle.db);
    expect(before.reference).toBe(number);
    const refused = [
      sql`update signed_documents set reference = 'DEV-0000-00000'`,
      sql`update signed_documents set pdf = '\\x00'::bytea`,
      sql`delete from signed_documents`,
      sql`truncate signed_documents`,
      sql`alter table signed_documents disable trigger signed_documents_write_once`,
      sql`drop trigger signed_documents_write_once on signed_documents`,
      sql`drop table signed_documents`,
      sql`select setval('signed_documents_id_seq', 1)`,
      sql`alter function purge_signed_documents() security invoker`,
      sql`create or replace function signed_documents_retention_years() returns integer
          language sql as 'select 0'`,
    ];
    for (const [i, statement] of refused.entries()) {
      expect(await outcome(handle.db.execute(statement)), `statement ${i}`).toMatch(/^42501 /);
    }
    // The retention's flag, set by the role itself, opens nothing: it has no DELETE.
    const flagged = await outcome(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.signed_retention', 'on', true)`);
        await tx.execute(sql`delete from signed_documents`);
      }),
    );
    expect(flagged).toMatch(/^42501 permission denied/);
    // The owner is refused too, by the trigger: what was signed is never rewritten.
    expect(
      await handle.asOwner((owner) =>
        outcome(owner.execute(sql`update signed_documents set file_name = 'autre.pdf'`)),
      ),
    ).toMatch(/^42501 signed_documents is write-once \(UPDATE refused\)/);
    expect(await signedRows(handle.db)).toEqual([before]);
  });

  it("an erasure leaves the signed quote and says so; its own purge keeps SIGNED_QUOTE_RETENTION_YEARS", async () => {
    const erased = await erasePersonalData(
      "Jeanne@example.fr",
      { context: testContext, actor: { id: 1, email: "admin@example.fr" } },
      handle.db,
    );
    expect(erased.counts).toMatchObject({ requests: 1, quotes: 1 });
    expect(erased.kept.map((d) => d.reference)).toEqual([number]);
    const [kept] = await signedRows(handle.db);
    expect(kept).toMatchObject({ reference: number, partyEmail: "jeanne@example.fr" });
    expect(await handle.db.$count(quotes)).toBe(0);

    // Eleven years old, written by the server's role (INSERT is its right): only it is purged,
    // through the owner's function, which the role may call but not shorten.
    const eleven = new Date();
    eleven.setUTCFullYear(eleven.getUTCFullYear() - 11);
    await recordSignedDocument(
      {
        kind: kept.kind,
        reference: "DEV-2001-00001",
        signedAt: eleven,
        fileName: kept.fileName,
        pdf: kept.pdf,
        seller: kept.seller,
        terms: kept.terms,
        party: kept.party,
        acceptance: kept.acceptance,
      },
      handle.db,
    );
    expect(await purgeSignedDocuments(handle.db)).toBe(1);
    expect((await signedRows(handle.db)).map((d) => d.reference)).toEqual([number]);
  });
});
