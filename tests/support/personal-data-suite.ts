import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, expect } from "vitest";
import * as personalData from "../../app/routes/admin/personal-data";
import { logger } from "../../app/platform/log.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import { quotes } from "../../app/platform/schema.server";
import { call, makeRequest, signedInAdmin } from "./admin";
import { insertRequest } from "./contacts";
import { useTestDatabase } from "./use-test-database";
import { buildOffer, insertOffers } from "./offers";

/**
 * The personal-data tests' database (emptied before each test, signed documents included), the
 * administrator signed in once (`session`), the people they look up, and the page's loader and
 * action as the administrator calls them.
 */
export function usePersonalDataSuite() {
  const database = useTestDatabase();
  const session = { cookie: "", actor: { id: 0, email: "", role: "admin" as const } };

  beforeAll(async () => {
    const signedIn = await signedInAdmin(database.db);
    session.cookie = signedIn.cookie;
    session.actor = { id: signedIn.admin.id, email: signedIn.admin.email, role: "admin" };
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
    const replaced = await sendQuote(jeanne, terms, session.actor, db);
    const kept = await sendQuote(jeanne, terms, session.actor, db);
    await sendQuote(paul, terms, session.actor, db);
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
      makeRequest(`/admin/personal-data${query}`, {
        cookie: withCookie ? session.cookie : undefined,
      }),
    );
  }

  function erase(form: Record<string, string>, options: { cookie?: string } = {}) {
    return call(
      personalData.action,
      makeRequest("/admin/personal-data", {
        form,
        cookie: options.cookie ?? session.cookie,
      }),
    );
  }

  return { database, session, seed, seedQuotes, lookup, erase };
}

/** Log lines written while `fn` runs (at info level). */
export async function captureLog<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
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
