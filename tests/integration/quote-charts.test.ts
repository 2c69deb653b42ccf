import { desc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { quoteCharts } from "../../app/features/quotes/quote-charts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import { quotes } from "../../app/platform/schema.server";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";

// The dashboard's quote charts: sent and accepted per week, and the acceptance rate over 90 days,
// from quotes sent and answered through the real server functions.
const { database, signedInAdmin } = useAdminSuite();
const client = { ip: "203.0.113.7", userAgent: "Vitest" };

describe(`dashboard quote charts (${testDatabaseKind})`, () => {
  let actor: { id: number; email: string; role: "admin" };
  let offerId: number;
  const newRequest = async (name: string) =>
    (
      await createContactRequest(
        {
          name,
          email: `${name.toLowerCase()}@example.fr`,
          phone: null,
          message: "Devis svp",
          offer: offerId,
          company: "ACME SAS",
          siren: "732829320",
        },
        database.db,
      )
    ).id;
  const latestQuoteId = async (requestId: number) =>
    (
      await database.db
        .select({ id: quotes.id })
        .from(quotes)
        .where(eq(quotes.contactRequestId, requestId))
        .orderBy(desc(quotes.id))
        .limit(1)
    )[0].id;
  const send = (requestId: number) =>
    sendQuote(requestId, { validityDays: 30, discounts: [] }, actor, database.db);

  beforeEach(async () => {
    const { admin } = await signedInAdmin();
    actor = { id: admin.id, email: admin.email, role: "admin" };
    [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "LOA Xeon", reference: "LOA-1", type: "loa", price: "100.00" }),
    ]);
  });

  it("counts the quotes sent and accepted per week and the 90-day acceptance rate", async () => {
    const empty = await quoteCharts(database.db);
    expect(empty.weekly).toHaveLength(12);
    expect(empty.rate).toEqual({ days: 90, sent: 0, accepted: 0, rate: null });

    // A: sent, then sent again (the first is replaced unanswered), the second accepted.
    const a = await newRequest("Anne");
    expect((await send(a)).kind).toBe("sent");
    expect((await send(a)).kind).toBe("sent");
    const link = (await drawQuoteLink(await latestQuoteId(a), database.db))!;
    const answer = await answerQuote(
      link.token,
      { kind: "accept", name: "Anne", role: "Gérante" },
      client,
      database.db,
    );
    expect(answer.kind).toBe("accepted");
    // B: sent, unanswered.
    const b = await newRequest("Bruno");
    await send(b);
    // C: sent and accepted 100 days ago, out of the weeks and of the rate.
    const c = await newRequest("Chloe");
    await send(c);
    await database.db
      .update(quotes)
      .set({
        sentAt: sql`now() - interval '100 days'`,
        acceptedAt: sql`now() - interval '99 days'`,
      })
      .where(eq(quotes.id, await latestQuoteId(c)));

    const charts = await quoteCharts(database.db);
    expect(charts.weekly).toHaveLength(12);
    expect(charts.weekly.map((w) => w.week)).toEqual(empty.weekly.map((w) => w.week));
    expect(charts.weekly.at(-1)).toMatchObject({ sent: 3, accepted: 1 });
    expect(charts.weekly.slice(0, -1).every((w) => w.sent === 0 && w.accepted === 0)).toBe(true);
    // The replaced quote is out of the rate: 1 accepted of 2.
    expect(charts.rate).toEqual({ days: 90, sent: 2, accepted: 1, rate: 0.5 });
  });
});
