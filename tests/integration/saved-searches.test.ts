import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { startMailWorker } from "../../app/features/mail/mail.server";
import { MAIL_KINDS } from "../../app/features/mail/mail-outbox.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { runFollowUpChecks } from "../../app/features/follow-ups/follow-ups.server";
import { setOfferActive } from "../../app/features/offers/offers.server";
import {
  erasePersonalData,
  findPersonalData,
} from "../../app/features/privacy/personal-data.server";
import { renderSavedSearchDigestMail } from "../../app/features/saved-searches/saved-search-mail";
import {
  confirmSavedSearch,
  drawSavedSearchMail,
  findSavedSearchesByToken,
  purgeSavedSearches,
  queueSavedSearchDigests,
  subscribeToSavedSearch,
  unsubscribeSavedSearch,
  waitingSearchCounts,
} from "../../app/features/saved-searches/saved-searches.server";
import { mailOutbox, offers, savedSearches } from "../../app/platform/schema.server";
// Sets the test environment (SITE_URL, LOG_LEVEL) that the app's configuration needs.
import { call, createAdmin, makeRequest, testContext } from "../support/admin";
import * as searchRoute from "../../app/routes/public/saved-search";
import { buildOffer, insertOffers } from "../support/offers";
import { startTestSmtpServer, testMailSettings } from "../support/smtp";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase({ truncate: true });
const context = { requestId: "test" };
let client = 0;
const from = () => ({ ...context, clientIp: `10.1.${Math.floor(++client / 250)}.${client % 250}` });

const EPYC = "?q=epyc";
let listed: number;
let hidden: number;
let other: number;

beforeEach(async () => {
  [{ id: listed }, { id: hidden }, { id: other }] = await insertOffers(database.db, [
    buildOffer(1, { title: "EPYC 7543 listé", delivery: "stock_24h" }),
    buildOffer(2, { title: "EPYC 9654 caché", delivery: "stock_24h", isActive: false }),
    buildOffer(3, { title: "Xeon caché", delivery: "stock_24h", isActive: false }),
  ]);
});

const subscribe = (query: string, email: string) =>
  subscribeToSavedSearch({ query, email }, from(), database.db);
const mails = () =>
  database.db
    .select({ id: mailOutbox.id, kind: mailOutbox.kind, savedSearchId: mailOutbox.savedSearchId })
    .from(mailOutbox)
    .orderBy(mailOutbox.id);
const searches = () => database.db.select().from(savedSearches).orderBy(savedSearches.id);

async function confirmedSearch(query: string, email: string) {
  expect((await subscribe(query, email)).kind).toBe("requested");
  const search = (await searches()).find((s) => s.email === email && s.query === query)!;
  const mail = (await mails()).findLast((m) => m.savedSearchId === search.id)!;
  const drawn = await drawSavedSearchMail(
    search.id,
    MAIL_KINDS.savedSearchConfirmation,
    mail.id,
    database.db,
  );
  expect(drawn?.kind).toBe("confirmation");
  expect(await confirmSavedSearch(drawn!.token, context, database.db)).toEqual({
    kind: "confirmed",
    query,
  });
  return search.id;
}

describe("saved searches", () => {
  it("stores the request and queues its confirmation only; the same answer for a known address", async () => {
    expect(await subscribe(EPYC, "jeanne@example.fr")).toEqual({ kind: "requested" });
    const [search] = await searches();
    expect(search).toMatchObject({ query: EPYC, confirmedAt: null, tokenHash: null });
    expect(await mails()).toMatchObject([
      { kind: MAIL_KINDS.savedSearchConfirmation, savedSearchId: search.id },
    ]);
    // Nothing matches before confirmation.
    await setOfferActive(hidden, true, database.db);
    expect(await queueSavedSearchDigests(database.db)).toBe(0);
    expect(await waitingSearchCounts(10, database.db)).toEqual([]);
    // A second request for the same search answers the same.
    expect(await subscribe(EPYC, "JEANNE@example.fr")).toEqual({ kind: "requested" });
    expect(await searches()).toHaveLength(1);
  });

  it("mails one digest for a new matching offer, not for what was already listed, not twice a day", async () => {
    const id = await confirmedSearch(EPYC, "jeanne@example.fr");
    await confirmedSearch("?q=epyc&type=dedicated", "jeanne@example.fr");
    await database.db.delete(mailOutbox);
    // What the listing showed at confirmation is not news; an unmatched offer is none either.
    expect(await queueSavedSearchDigests(database.db)).toBe(0);
    await setOfferActive(other, true, database.db);
    expect(await queueSavedSearchDigests(database.db)).toBe(0);
    // A matching offer published: one digest for the address, whatever its two searches.
    await setOfferActive(hidden, true, database.db);
    expect(await queueSavedSearchDigests(database.db)).toBe(1);
    expect(await queueSavedSearchDigests(database.db)).toBe(0);
    const [digest] = await mails();
    expect(digest).toMatchObject({ kind: MAIL_KINDS.savedSearchDigest, savedSearchId: id });
    const drawn = await drawSavedSearchMail(
      id,
      MAIL_KINDS.savedSearchDigest,
      digest.id,
      database.db,
    );
    expect(drawn?.kind).toBe("digest");
    if (drawn?.kind !== "digest") throw new Error("no digest");
    expect(drawn.searches.map((s) => s.offers.map((o) => o.slug))).toEqual([
      ["offre-2"],
      ["offre-2"],
    ]);
    const rendered = renderSavedSearchDigestMail({
      searches: drawn.searches.map((s) => ({
        query: s.query,
        listingUrl: `https://example.test/offers${s.query}`,
        offers: s.offers.map((o) => ({ ...o, delivery: "24 h", url: `/offers/${o.slug}` })),
      })),
      unsubscribeUrl: "https://example.test/u",
    });
    expect(rendered.text).toContain("/offers/offre-2");
    expect(rendered.text).toContain("https://example.test/u");
    // Sold out then back the same day: news again, but no second mail within the day.
    await database.db.update(offers).set({ delivery: "sold_out" }).where(eq(offers.id, listed));
    await queueSavedSearchDigests(database.db);
    await database.db.update(offers).set({ delivery: "stock_72h" }).where(eq(offers.id, listed));
    expect(await queueSavedSearchDigests(database.db)).toBe(0);
    expect(await mails()).toHaveLength(1);
    // A day later, the waiting match goes.
    await database.db.update(savedSearches).set({ lastMailedAt: sql`now() - interval '25 hours'` });
    expect(await queueSavedSearchDigests(database.db)).toBe(1);
    // The unsubscribe link of the digest ends both searches.
    expect(await findSavedSearchesByToken(drawn.token, "unsubscribe", database.db)).toMatchObject({
      queries: [EPYC, "?q=epyc&type=dedicated"],
    });
    expect(await unsubscribeSavedSearch(drawn.token, context, database.db)).toEqual({
      kind: "unsubscribed",
      count: 2,
    });
    expect(await searches()).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
    expect(await unsubscribeSavedSearch(drawn.token, context, database.db)).toEqual({
      kind: "invalid-link",
    });
  });

  it("counts the confirmed searches for the admin, most common first", async () => {
    await confirmedSearch(EPYC, "a@example.fr");
    await confirmedSearch(EPYC, "b@example.fr");
    await confirmedSearch("?type=loa", "a@example.fr");
    await subscribe("?q=xeon", "c@example.fr");
    expect(await waitingSearchCounts(10, database.db)).toEqual([
      { query: EPYC, count: 2 },
      { query: "?type=loa", count: 1 },
    ]);
  });

  it("purges unconfirmed searches after 7 days and confirmed ones after 6 months without a match", async () => {
    const kept = await confirmedSearch(EPYC, "a@example.fr");
    const idle = await confirmedSearch("?type=loa", "b@example.fr");
    await subscribe("?q=xeon", "c@example.fr");
    await database.db
      .update(savedSearches)
      .set({ createdAt: sql`now() - interval '8 days'` })
      .where(sql`confirmed_at is null`);
    await database.db
      .update(savedSearches)
      .set({ confirmedAt: sql`now() - interval '7 months'` })
      .where(eq(savedSearches.id, idle));
    await database.db
      .update(savedSearches)
      .set({
        confirmedAt: sql`now() - interval '7 months'`,
        lastMatchAt: sql`now() - interval '1 month'`,
      })
      .where(eq(savedSearches.id, kept));
    expect(await purgeSavedSearches({ dryRun: true }, database.db)).toEqual({
      unconfirmed: 1,
      idle: 1,
    });
    expect(await purgeSavedSearches({}, database.db)).toEqual({ unconfirmed: 1, idle: 1 });
    expect((await searches()).map((s) => s.id)).toEqual([kept]);
  });

  it("is in the address's personal data, and erased with it", async () => {
    await confirmedSearch(EPYC, "Jeanne@example.fr");
    const data = await findPersonalData("jeanne@example.fr", database.db);
    expect(data.savedSearches).toMatchObject([{ query: EPYC }]);
    expect(data.counts.savedSearches).toBe(1);
    const admin = await createAdmin(database.db);
    const erased = await erasePersonalData(
      "jeanne@example.fr",
      { context: testContext, actor: { id: admin.id, email: admin.email } },
      database.db,
    );
    expect(erased.counts.savedSearches).toBe(1);
    expect(await searches()).toHaveLength(0);
  });

  it("answers the listing's form without JavaScript: redirect, French 400s, the same answer twice", async () => {
    const post = (path: string, email: string, ip = "203.0.113.9") =>
      call(searchRoute.action, makeRequest(path, { form: { email } }), {
        ...testContext,
        clientIp: ip,
      });
    const sent = await post("/recherches?type=dedicated&q=EPYC&sort=price_asc", "a@example.fr");
    expect(sent.status).toBe(303);
    expect(sent.location).toBe("/recherches?q=EPYC&type=dedicated&envoyee=1");
    expect((await searches()).map((s) => s.query)).toEqual(["?q=EPYC&type=dedicated"]);
    const again = await post("/recherches?q=EPYC&type=dedicated", "A@example.fr");
    expect([again.status, again.location]).toEqual([sent.status, sent.location]);
    expect(await post("/recherches", "a@example.fr")).toMatchObject({ status: 400 });
    expect(await post("/recherches?q=epyc", "pas-une-adresse")).toMatchObject({
      status: 400,
      data: { fieldError: "Veuillez saisir une adresse e-mail valide." },
    });
    let last = 0;
    for (let i = 0; i < 30 && last !== 429; i++)
      last = (await post(`/recherches?q=x${i}`, `r${i}@example.fr`, "203.0.113.50")).status;
    expect(last).toBe(429);
  });

  it("lists two offers published the same day in one digest, from the five-minute checks", async () => {
    const id = await confirmedSearch("?q=cach%C3%A9", "paul@example.fr");
    await database.db.delete(mailOutbox);
    await setOfferActive(hidden, true, database.db);
    await setOfferActive(other, true, database.db);
    await runFollowUpChecks(new Date(), database.db);
    const [digest] = await mails();
    expect(digest).toMatchObject({ kind: MAIL_KINDS.savedSearchDigest, savedSearchId: id });
    const draw = (mailId: number) =>
      drawSavedSearchMail(id, MAIL_KINDS.savedSearchDigest, mailId, database.db);
    const slugs = (drawn: Awaited<ReturnType<typeof draw>>) =>
      drawn?.kind === "digest" ? drawn.searches[0].offers.map((o) => o.slug).sort() : [];
    expect(slugs(await draw(digest.id))).toEqual(["offre-2", "offre-3"]);
    // Its send failed and is retried: the same mail lists them again.
    expect(slugs(await draw(digest.id))).toEqual(["offre-2", "offre-3"]);
    // Another digest finds nothing pending: it is not sent.
    expect(await draw(digest.id + 1)).toBeUndefined();
  });

  it("sends a digest's offers once the SMTP server, refusing it for a while (451), accepts it", async () => {
    const id = await confirmedSearch("?q=cach%C3%A9", "lea@example.fr");
    await database.db.delete(mailOutbox);
    const smtp = await startTestSmtpServer();
    const worker = startMailWorker(database, testMailSettings(smtp), mailRenderers, {
      pollMs: 100,
    });
    try {
      smtp.rejectWith({ code: 451, message: "Try again later" });
      await setOfferActive(hidden, true, database.db);
      expect(await queueSavedSearchDigests(database.db)).toBe(1);
      worker.wake();
      for (const deadline = Date.now() + 30_000; smtp.rejected < 2;) {
        if (Date.now() > deadline) throw new Error("the digest was never tried twice");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      smtp.rejectWith(null);
      const [mail] = await smtp.waitForMails(1);
      expect(mail.parsed.subject).toBe("Une nouvelle offre pour votre recherche");
      expect(mail.parsed.text).toContain("/offers/offre-2");
      const [row] = await database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.savedSearchId, id));
      expect(row).toMatchObject({ kind: MAIL_KINDS.savedSearchDigest });
    } finally {
      await worker.stop(1_000);
      await smtp.stop();
    }
  });
});
