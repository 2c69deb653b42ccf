import { desc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { quotePage, quotePagePdf } from "../../app/features/quotes/quote-page.server";
import { buyerPdf, drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import { requestQuote } from "../../app/features/quotes/quotes.server";
import type { Database } from "../../app/platform/db.server";
import { env } from "../../app/platform/env.server";
import {
  contactRequests,
  quotes,
  signedDocuments,
  type Quote,
  type SignedDocument,
} from "../../app/platform/schema.server";
import {
  purgeSignedDocuments,
  recordSignedDocument,
  sha256Hex,
  type NewSignedDocument,
} from "../../app/platform/signed-documents.server";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";

// What a buyer signs is kept as signed (issue 40): the PDF's bytes, their SHA-256, the seller and
// terms, the acceptance, written once; every later download serves those bytes; a new quote does
// not replace a signed one; an acceptance and a new quote at once end in one consistent state.
const { database, signedInAdmin } = useAdminSuite();
const client = { ip: "203.0.113.8", userAgent: "Vitest signataire" };
const ACCEPT = { kind: "accept", name: "Jeanne Achat", role: "Gérante" } as const;

/** A stored document as it would be written again (its hash and address are derived). */
const copyOf = (row: SignedDocument): NewSignedDocument => ({
  kind: row.kind,
  reference: row.reference,
  sourceId: row.sourceId,
  contactRequestId: row.contactRequestId,
  signedAt: row.signedAt,
  fileName: row.fileName,
  pdf: row.pdf,
  seller: row.seller,
  terms: row.terms,
  party: row.party,
  acceptance: row.acceptance,
});

/** The SQLSTATE and message a statement fails with, or "ok". */
const outcome = (run: Promise<unknown>) =>
  run.then(
    () => "ok",
    (error: Error & { cause?: { code?: string; message: string } }) =>
      `${error.cause?.code ?? "?"} ${error.cause?.message ?? error.message}`,
  );

describe(`signed quotes (${testDatabaseKind})`, () => {
  let actor: { id: number; email: string; role: "admin" };
  let offerId: number;
  let n = 0;

  beforeEach(async () => {
    const { admin } = await signedInAdmin();
    actor = { id: admin.id, email: admin.email, role: "admin" };
    [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "Xeon signé", reference: "SIG-1", price: "120.00" }),
    ]);
  });

  /** A request about the offer, its quote sent, and the buyer's link. */
  async function sentQuote(db: Database = database.db) {
    n += 1;
    const { id } = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: `jeanne-${n}@example.fr`,
        phone: null,
        message: "Un devis svp",
        offer: offerId,
        company: "ACME SAS",
        siren: "732829320",
      },
      db,
    );
    const sent = await sendQuote(id, { validityDays: 30, discounts: [] }, actor, db);
    if (sent.kind !== "sent") throw new Error(`not sent: ${sent.kind}`);
    const [row] = await db.select().from(quotes).where(eq(quotes.number, sent.number));
    const link = (await drawQuoteLink(row.id, db))!;
    return { id, number: sent.number, link };
  }

  const quotesOf = (id: number) =>
    database.db
      .select()
      .from(quotes)
      .where(eq(quotes.contactRequestId, id))
      .orderBy(desc(quotes.id));

  it("keeps the accepted PDF once, with its hash, seller, terms and acceptance; downloads serve it", async () => {
    const { id, number, link } = await sentQuote();
    const { pdf: seen } = await buyerPdf(link.quote);
    expect(await answerQuote(link.token, ACCEPT, client, database.db)).toEqual({
      kind: "accepted",
      number,
    });

    const [signed] = await database.db.select().from(signedDocuments);
    const e = env();
    expect(signed).toMatchObject({
      kind: "quote",
      reference: number,
      contactRequestId: id,
      fileName: `${number}.pdf`,
      pdfSha256: sha256Hex(seen),
      partyEmail: `jeanne-${n}@example.fr`,
      seller: {
        legalName: e.SITE_LEGAL_NAME,
        legalForm: e.SITE_LEGAL_FORM,
        address: e.SITE_ADDRESS,
        siren: e.SITE_SIREN,
        rcs: e.SITE_RCS,
        vatNumber: e.SITE_VAT_NUMBER,
      },
      terms: { url: e.SITE_TERMS_URL, version: e.SITE_TERMS_VERSION ?? null },
      party: { name: "Jeanne Achat", company: "ACME SAS", siren: "732829320" },
      acceptance: {
        name: "Jeanne Achat",
        role: "Gérante",
        ip: client.ip,
        userAgent: client.userAgent,
      },
    });
    expect(signed.pdf.equals(seen)).toBe(true);
    const [quote] = await quotesOf(id);
    expect(signed.sourceId).toBe(quote.id);
    expect(signed.signedAt).toEqual(quote.acceptedAt);
    expect(quote.acceptance?.pdfSha256).toBe(signed.pdfSha256);

    // The buyer's page and its PDF, the request's `Devis (PDF)`: the stored bytes and hash.
    expect((await quotePagePdf(link.token))?.pdf.equals(seen)).toBe(true);
    const page = await quotePage(link.token);
    expect(page.kind === "quote" && page.signedSha256).toBe(signed.pdfSha256);
    const desk = await requestQuote(id, database.db);
    expect(desk).toMatchObject({ kind: "signed", number, sha256: signed.pdfSha256 });
    expect(desk.kind === "signed" && desk.pdf.equals(seen)).toBe(true);
  });

  it("is written once: an update or a delete is refused, whoever asks", async () => {
    const { link } = await sentQuote();
    await answerQuote(link.token, ACCEPT, client, database.db);
    const refused = [
      sql`update signed_documents set reference = 'DEV-0000-00000'`,
      sql`update signed_documents set pdf = '\\x00'::bytea`,
      sql`delete from signed_documents`,
    ];
    for (const statement of refused) {
      expect(await outcome(database.db.execute(statement))).toMatch(
        /^42501 signed_documents is write-once/,
      );
    }
    expect(await database.db.$count(signedDocuments)).toBe(1);
    // A second document for the same quote number is refused by the unique key.
    const [row] = await database.db.select().from(signedDocuments);
    expect(await outcome(recordSignedDocument(copyOf(row), database.db))).toMatch(/^23505 /);
  });

  it("refuses a new quote over an accepted one; a declined one is replaced", async () => {
    const accepted = await sentQuote();
    await answerQuote(accepted.link.token, ACCEPT, client, database.db);
    expect(
      await sendQuote(accepted.id, { validityDays: 30, discounts: [] }, actor, database.db),
    ).toEqual({ kind: "signed", number: accepted.number });
    expect(await quotesOf(accepted.id)).toHaveLength(1);

    const declined = await sentQuote();
    const refusal = { kind: "decline", reason: null } as const;
    expect(await answerQuote(declined.link.token, refusal, client, database.db)).toMatchObject({
      kind: "declined",
    });
    expect(
      await sendQuote(declined.id, { validityDays: 30, discounts: [] }, actor, database.db),
    ).toMatchObject({ kind: "sent", replaced: declined.number });
    expect(await database.db.$count(signedDocuments)).toBe(1);
  });

  it("an acceptance and a new quote at the same moment end in one consistent state", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const { id, number, link } = await sentQuote();
      const [answer, sending] = await Promise.all([
        answerQuote(link.token, ACCEPT, client, database.db),
        sendQuote(id, { validityDays: 30, discounts: [] }, actor, database.db),
      ]);
      outcomes.add(`${answer.kind}/${sending.kind}`);
      const rows: Quote[] = await quotesOf(id);
      const signed = await database.db
        .select({ reference: signedDocuments.reference })
        .from(signedDocuments)
        .where(eq(signedDocuments.contactRequestId, id));
      const [request] = await database.db
        .select({ status: contactRequests.status })
        .from(contactRequests)
        .where(eq(contactRequests.id, id));
      if (answer.kind === "accepted") {
        // Accepted first: the new quote waited for it, then was refused.
        expect(sending).toEqual({ kind: "signed", number });
        expect(rows).toHaveLength(1);
        expect(rows[0].acceptedAt).not.toBeNull();
        expect(rows[0].replacedAt).toBeNull();
        expect(signed).toEqual([{ reference: number }]);
        expect(request.status).toBe("accepted");
      } else {
        // Sent first: the accepted quote was replaced before the answer, which was refused.
        expect(answer).toEqual({ kind: "refused", state: "replaced" });
        expect(sending).toMatchObject({ kind: "sent", replaced: number });
        expect(rows).toHaveLength(2);
        expect(rows.every((q) => q.acceptedAt === null)).toBe(true);
        expect(rows[1].replacedAt).not.toBeNull();
        expect(signed).toEqual([]);
        expect(request.status).toBe("quote_sent");
      }
    }
    expect([...outcomes].every((o) => ["accepted/signed", "refused/sent"].includes(o))).toBe(true);
  });

  it("purges signed documents only past SIGNED_QUOTE_RETENTION_YEARS, apart from the requests", async () => {
    const { link } = await sentQuote();
    await answerQuote(link.token, ACCEPT, client, database.db);
    const [kept] = await database.db.select().from(signedDocuments);
    const copy = copyOf(kept);
    const years = env().SIGNED_QUOTE_RETENTION_YEARS;
    const past = (y: number, days: number) => {
      const at = new Date();
      at.setUTCFullYear(at.getUTCFullYear() - y);
      at.setUTCDate(at.getUTCDate() + days);
      return at;
    };
    await recordSignedDocument(
      { ...copy, reference: "DEV-2001-00001", signedAt: past(years, -2) },
      database.db,
    );
    await recordSignedDocument(
      { ...copy, reference: "DEV-2001-00002", signedAt: past(years, 2) },
      database.db,
    );
    expect(await purgeSignedDocuments(database.db)).toBe(1);
    expect(await purgeSignedDocuments(database.db)).toBe(0);
    const left = await database.db
      .select({ reference: signedDocuments.reference })
      .from(signedDocuments)
      .orderBy(signedDocuments.id);
    expect(left.map((d) => d.reference)).toEqual([kept.reference, "DEV-2001-00002"]);
  });
});
