import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { quotePagePdf } from "../../app/features/quotes/quote-page.server";
import {
  buyerPdf,
  drawQuoteLink,
  queueQuoteReminders,
  quoteByToken,
  quoteState,
  sendQuote,
} from "../../app/features/quotes/quote-sending.server";
import { sha256Hex } from "../../app/platform/signed-documents.server";
import {
  contactRequests,
  contactStatusChanges,
  mailOutbox,
  quotes,
  webhookDeliveries,
  webhookEndpoints,
} from "../../app/platform/schema.server";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { pdfText } from "../support/pdf-text";

const { database, signedInAdmin } = useAdminSuite();
const client = { ip: "203.0.113.7", userAgent: "Vitest" };

describe(`quote sending (${testDatabaseKind})`, () => {
  let requestId: number;
  let actor: { id: number; email: string; role: "admin" };

  beforeEach(async () => {
    const { admin } = await signedInAdmin();
    actor = { id: admin.id, email: admin.email, role: "admin" };
    const [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "LOA Xeon", reference: "LOA-1", type: "loa", price: "100.00" }),
    ]);
    await database.db.insert(webhookEndpoints).values({
      url: "https://crm.example.com/hook",
      events: ["quote.sent", "quote.accepted", "quote.declined"],
      secret: "whsec_dGVzdA==",
    });
    ({ id: requestId } = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Devis svp",
        offer: offerId,
        company: "ACME SAS",
        siren: "732829320",
      },
      database.db,
    ));
  });

  it("sends, is accepted once, and the request, its history, mails and webhooks follow", async () => {
    const sent = await sendQuote(
      requestId,
      { validityDays: 30, discounts: [10] },
      actor,
      database.db,
    );
    expect(sent).toMatchObject({
      kind: "sent",
      number: expect.stringMatching(/^DEV-\d{4}-\d{5}$/),
    });
    const [request] = await database.db
      .select({ status: contactRequests.status })
      .from(contactRequests)
      .where(eq(contactRequests.id, requestId));
    expect(request.status).toBe("quote_sent");
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "quote_sent"));
    expect(mails).toHaveLength(1);

    const link = await drawQuoteLink(mails[0].quoteId!, database.db);
    expect(link).toBeDefined();
    const { pdf } = await buyerPdf(link!.quote);
    const text = await pdfText(new Uint8Array(pdf));
    for (const expected of [
      sent.kind === "sent" ? sent.number : "",
      "ACME SAS",
      "SIREN 732 829 320",
      "FR44732829320",
      "remise 10 %",
    ]) {
      expect(text).toContain(expected);
    }

    const accepted = await answerQuote(
      link!.token,
      { kind: "accept", name: "Jeanne Achat", role: "Gérante" },
      client,
      database.db,
    );
    expect(accepted.kind).toBe("accepted");
    const quote = (await quoteByToken(link!.token, database.db))!;
    expect(quoteState(quote)).toBe("accepted");
    expect(quote.acceptance).toMatchObject({
      name: "Jeanne Achat",
      ip: client.ip,
      pdfSha256: sha256Hex(pdf),
    });
    // Downloaded afterwards: the very bytes the buyer saw and accepted (issue 40).
    expect((await quotePagePdf(link!.token))?.pdf.equals(pdf)).toBe(true);

    const again = await answerQuote(
      link!.token,
      { kind: "decline", reason: null },
      client,
      database.db,
    );
    expect(again).toEqual({ kind: "refused", state: "accepted" });

    const history = await database.db
      .select({ to: contactStatusChanges.toStatus })
      .from(contactStatusChanges)
      .where(eq(contactStatusChanges.contactRequestId, requestId));
    // An LOA's acceptance opens its financer's file (issue 41).
    expect(history.map((h) => h.to).sort()).toEqual(["accepted", "file_incomplete", "quote_sent"]);
    const events = await database.db
      .select({ type: webhookDeliveries.eventType })
      .from(webhookDeliveries);
    expect(events.map((e) => e.type)).toEqual(["quote.sent", "quote.accepted"]);
    const answered = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "quote_answered"));
    expect(answered).toHaveLength(1);
  });

  it("refuses an answer on an expired or a replaced quote; reminds the owner once", async () => {
    await sendQuote(requestId, { validityDays: 2, discounts: [] }, actor, database.db);
    const [first] = await database.db.select().from(quotes);
    const link = (await drawQuoteLink(first.id, database.db))!;
    expect(await queueQuoteReminders(undefined, database.db)).toBe(1);
    expect(await queueQuoteReminders(undefined, database.db)).toBe(0);

    await sendQuote(requestId, { validityDays: 30, discounts: [] }, actor, database.db);
    expect(
      await answerQuote(link.token, { kind: "accept", name: "J", role: "R" }, client, database.db),
    ).toEqual({ kind: "refused", state: "replaced" });

    const [latest] = await database.db
      .select()
      .from(quotes)
      .where(eq(quotes.number, (await database.db.select().from(quotes)).at(-1)!.number));
    const second = (await drawQuoteLink(latest.id, database.db))!;
    await database.db
      .update(quotes)
      .set({ validUntil: new Date(Date.now() - 1000) })
      .where(eq(quotes.id, latest.id));
    expect(
      await answerQuote(
        second.token,
        { kind: "accept", name: "J", role: "R" },
        client,
        database.db,
      ),
    ).toEqual({ kind: "refused", state: "expired" });
  });
});
