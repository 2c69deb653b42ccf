import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  confirmAlert,
  drawAlertMail,
  findAlertByToken,
  purgeAlerts,
  queueAvailabilityAlerts,
  subscribeToAlert,
  unsubscribeAlert,
  waitingAlertCounts,
} from "../../app/features/alerts/alerts.server";
import { ALERT_SITE_KEY, alertRateLimitKeys } from "../../app/features/alerts/subscriptions.server";
import { MAIL_KINDS } from "../../app/features/mail/mail-outbox.server";
import { setOfferActive } from "../../app/features/offers/offers.server";
import { findPersonalData } from "../../app/features/privacy/personal-data.server";
import { peekRateLimit } from "../../app/platform/rate-limit.server";
import { mailOutbox, offerAlerts, offers } from "../../app/platform/schema.server";
// Sets the test environment (SITE_URL, LOG_LEVEL) that the app's configuration needs.
import "../support/admin";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase({ truncate: true });
const context = { requestId: "test" };
let client = 0;
const from = () => ({ ...context, clientIp: `10.0.${Math.floor(++client / 250)}.${client % 250}` });

let soldOut: number;
let inStock: number;
let hidden: number;

beforeEach(async () => {
  [{ id: soldOut }, { id: inStock }, { id: hidden }] = await insertOffers(database.db, [
    buildOffer(1, { delivery: "sold_out" }),
    buildOffer(2, { delivery: "stock_24h" }),
    buildOffer(3, { delivery: "on_order", isActive: false }),
  ]);
});

const subscribe = (offerId: number, email: string) =>
  subscribeToAlert({ offerId, email }, from(), database.db);
const mails = () =>
  database.db
    .select({ kind: mailOutbox.kind, alertId: mailOutbox.alertId })
    .from(mailOutbox)
    .orderBy(mailOutbox.id);
const alerts = () => database.db.select().from(offerAlerts).orderBy(offerAlerts.id);

/** Subscribes and confirms through the link the confirmation mail would carry. */
async function confirmedAlert(offerId: number, email: string) {
  expect((await subscribe(offerId, email)).kind).toBe("requested");
  const [alert] = (await alerts()).filter((a) => a.email === email);
  const drawn = await drawAlertMail(alert.id, MAIL_KINDS.alertConfirmation, database.db);
  const confirmed = await confirmAlert(drawn!.token, context, database.db);
  expect(confirmed.kind).toBe("confirmed");
  return { id: alert.id, token: drawn!.token };
}

describe("subscribing", () => {
  it("stores an alert on a sold-out offer and queues its confirmation, nothing else", async () => {
    expect(await subscribe(soldOut, "jeanne@example.fr")).toEqual({
      kind: "requested",
      slug: "offre-1",
    });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ offerId: soldOut, confirmedAt: null, tokenHash: null });
    expect(await mails()).toEqual([{ kind: MAIL_KINDS.alertConfirmation, alertId: alert.id }]);
    expect(await waitingAlertCounts([soldOut], database.db)).toEqual(new Map());
  });

  it("needs none on an offer in stock, and refuses a hidden one", async () => {
    expect(await subscribe(inStock, "jeanne@example.fr")).toEqual({
      kind: "available",
      slug: "offre-2",
    });
    expect(await subscribe(hidden, "jeanne@example.fr")).toEqual({ kind: "missing" });
    expect(await subscribe(999_999, "jeanne@example.fr")).toEqual({ kind: "missing" });
    expect(await alerts()).toHaveLength(0);
  });

  it("keeps one alert per address and offer, and mails one mailbox 3 times a day at most", async () => {
    for (const email of [
      "paul@example.fr",
      "Paul@Example.fr",
      "paul@example.fr",
      "PAUL@example.fr",
    ])
      expect((await subscribe(soldOut, email)).kind).toBe("requested");
    expect(await alerts()).toHaveLength(1);
    expect(await mails()).toHaveLength(3);
    // +tag variants are the same mailbox.
    expect((await subscribe(soldOut, "paul+x@example.fr")).kind).toBe("requested");
    expect(await mails()).toHaveLength(3);
  });

  it("keeps the link already mailed working when a repeated request mails nothing", async () => {
    let token = "";
    // The mailbox's 3 mails of the day, each sent (its link drawn): the newest link confirms.
    for (let i = 0; i < 3; i++) {
      expect((await subscribe(soldOut, "marie@example.fr")).kind).toBe("requested");
      const [alert] = await alerts();
      token = (await drawAlertMail(alert.id, MAIL_KINDS.alertConfirmation, database.db))!.token;
    }
    const [before] = await alerts();
    // A fourth request: the same answer, no mail, and the link of the third mail still works.
    expect(await subscribe(soldOut, "Marie@example.fr")).toEqual({
      kind: "requested",
      slug: "offre-1",
    });
    expect(await mails()).toHaveLength(3);
    const [after] = await alerts();
    expect(after).toMatchObject({ tokenHash: before.tokenHash, createdAt: before.createdAt });
    expect((await confirmAlert(token, context, database.db)).kind).toBe("confirmed");
  });

  it("mails a domain 20 times an hour at most, its sub-domains together, with the same answer", async () => {
    for (let i = 0; i < 25; i++) {
      const email = i % 2 ? `boite-${i}@catch-all.example` : `boite-${i}@s${i}.catch-all.example`;
      expect(await subscribe(soldOut, email), email).toEqual({
        kind: "requested",
        slug: "offre-1",
      });
    }
    expect(await alerts()).toHaveLength(25);
    expect(await mails()).toHaveLength(20);
    // A refused mail gives its mailbox's count back; another domain is still mailed.
    const refused = alertRateLimitKeys("boite-24@s24.catch-all.example", "10.0.0.1");
    expect((await peekRateLimit(refused.mailbox, database.db)).count).toBe(0);
    expect((await subscribe(soldOut, "jeanne@example.fr")).kind).toBe("requested");
    expect(await mails()).toHaveLength(21);
  });

  it("mails 60 confirmations an hour at most for the whole site, whatever the domains", async () => {
    for (let i = 0; i < 64; i++) {
      const email = `client@domaine-${Math.floor(i / 16)}.example`;
      const result = await subscribe(soldOut, email.replace("client", `client-${i}`));
      expect(result).toEqual({ kind: "requested", slug: "offre-1" });
    }
    expect(await alerts()).toHaveLength(64);
    expect(await mails()).toHaveLength(60);
    const last = alertRateLimitKeys("client-63@domaine-3.example", "10.0.0.1");
    expect((await peekRateLimit(last.mailbox, database.db)).count).toBe(0);
    expect((await peekRateLimit(last.domain, database.db)).count).toBe(12);
    expect((await peekRateLimit(ALERT_SITE_KEY, database.db)).count).toBe(64);
  }, 120_000);

  it("is limited per client address", async () => {
    const ip = { ...context, clientIp: "10.9.9.9" };
    for (let i = 0; i < 10; i++) {
      const result = await subscribeToAlert(
        { offerId: soldOut, email: `p${i}@example.fr` },
        ip,
        database.db,
      );
      expect(result.kind).toBe("requested");
    }
    const refused = await subscribeToAlert(
      { offerId: soldOut, email: "p10@example.fr" },
      ip,
      database.db,
    );
    expect(refused.kind).toBe("rate-limited");
  });
});

describe("confirming and the offer's return", () => {
  it("counts a confirmed alert, mails it once when the offer is back, never again", async () => {
    const { id, token } = await confirmedAlert(soldOut, "jeanne@example.fr");
    await subscribe(soldOut, "paul@example.fr"); // never confirmed
    expect(await waitingAlertCounts([soldOut], database.db)).toEqual(new Map([[soldOut, 1]]));
    expect((await findAlertByToken(token, "confirm", database.db))?.confirmed).toBe(true);

    // Back in stock but hidden: nothing yet; shown: one mail, the alert done.
    await database.db
      .update(offers)
      .set({ delivery: "stock_24h", isActive: false })
      .where(eq(offers.id, soldOut));
    expect(await queueAvailabilityAlerts(soldOut, database.db)).toBe(0);
    expect(await setOfferActive(soldOut, true, database.db)).toBe(true);
    const available = (await mails()).filter((m) => m.kind === MAIL_KINDS.alertAvailable);
    expect(available).toEqual([{ kind: MAIL_KINDS.alertAvailable, alertId: id }]);
    expect(await waitingAlertCounts([soldOut], database.db)).toEqual(new Map());

    // A second change mails nothing.
    expect(await setOfferActive(soldOut, true, database.db)).toBe(true);
    expect(await queueAvailabilityAlerts(soldOut, database.db)).toBe(0);
    expect((await mails()).filter((m) => m.kind === MAIL_KINDS.alertAvailable)).toHaveLength(1);

    // The mail's links: a new token; the confirmation mail's unsubscribe link still works.
    const drawn = await drawAlertMail(id, MAIL_KINDS.alertAvailable, database.db);
    expect(drawn?.offer).toMatchObject({ slug: "offre-1", delivery: "stock_24h" });
    expect(drawn?.token).not.toBe(token);
    expect(await findAlertByToken(token, "confirm", database.db)).toBeUndefined();
    expect((await findAlertByToken(token, "unsubscribe", database.db))?.done).toBe(true);
    expect((await findAlertByToken(drawn!.token, "unsubscribe", database.db))?.done).toBe(true);
  });

  it("starts a done alert asked again with no link: the last mail's cannot confirm it", async () => {
    const { id } = await confirmedAlert(soldOut, "jeanne@example.fr");
    await database.db.update(offers).set({ delivery: "stock_24h" }).where(eq(offers.id, soldOut));
    expect(await queueAvailabilityAlerts(soldOut, database.db)).toBe(1);
    const available = await drawAlertMail(id, MAIL_KINDS.alertAvailable, database.db);
    await database.db.update(offers).set({ delivery: "sold_out" }).where(eq(offers.id, soldOut));
    expect((await subscribe(soldOut, "jeanne@example.fr")).kind).toBe("requested");
    expect((await alerts())[0]).toMatchObject({ confirmedAt: null, tokenHash: null });
    expect(await findAlertByToken(available!.token, "confirm", database.db)).toBeUndefined();
  });

  it("confirmed while the offer is already back: mailed at once", async () => {
    expect((await subscribe(soldOut, "jeanne@example.fr")).kind).toBe("requested");
    const [alert] = await alerts();
    const drawn = await drawAlertMail(alert.id, MAIL_KINDS.alertConfirmation, database.db);
    await database.db.update(offers).set({ delivery: "stock_72h" }).where(eq(offers.id, soldOut));
    const confirmed = await confirmAlert(drawn!.token, context, database.db);
    expect(confirmed).toMatchObject({ kind: "confirmed", available: true });
    expect((await mails()).map((m) => m.kind)).toEqual([
      MAIL_KINDS.alertConfirmation,
      MAIL_KINDS.alertAvailable,
    ]);
  });

  it("refuses unknown, malformed and expired links", async () => {
    expect(await confirmAlert(undefined, context, database.db)).toEqual({ kind: "invalid-link" });
    expect(await confirmAlert("x".repeat(43), context, database.db)).toEqual({
      kind: "invalid-link",
    });
    await subscribe(soldOut, "jeanne@example.fr");
    const [alert] = await alerts();
    const drawn = await drawAlertMail(alert.id, MAIL_KINDS.alertConfirmation, database.db);
    await database.db.execute(
      sql`update offer_alerts set created_at = now() - interval '8 days' where id = ${alert.id}`,
    );
    expect(await confirmAlert(drawn!.token, context, database.db)).toEqual({
      kind: "invalid-link",
    });
    // Past its 7 days, its confirmation is not mailed either.
    expect(
      await drawAlertMail(alert.id, MAIL_KINDS.alertConfirmation, database.db),
    ).toBeUndefined();
  });
});

describe("unsubscribing, retention, personal data", () => {
  it("deletes the alert and its mails", async () => {
    const { token } = await confirmedAlert(soldOut, "jeanne@example.fr");
    expect(await unsubscribeAlert(token, context, database.db)).toEqual({
      kind: "unsubscribed",
      offer: { title: "Offre 1" },
    });
    expect(await alerts()).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
    expect(await unsubscribeAlert(token, context, database.db)).toEqual({ kind: "invalid-link" });
  });

  it("purges unconfirmed alerts after 7 days and confirmed ones after 6 months", async () => {
    await subscribe(soldOut, "recent@example.fr");
    await subscribe(soldOut, "old@example.fr");
    const { id: kept } = await confirmedAlert(soldOut, "kept@example.fr");
    const { id: expired } = await confirmedAlert(soldOut, "expired@example.fr");
    await database.db.execute(
      sql`update offer_alerts set created_at = now() - interval '8 days' where email = 'old@example.fr'`,
    );
    await database.db.execute(
      sql`update offer_alerts set confirmed_at = now() - interval '7 months' where id = ${expired}`,
    );
    expect(await purgeAlerts({ dryRun: true }, database.db)).toEqual({
      unconfirmed: 1,
      confirmed: 1,
    });
    expect(await alerts()).toHaveLength(4);
    expect(await purgeAlerts({}, database.db)).toEqual({ unconfirmed: 1, confirmed: 1 });
    expect((await alerts()).map((a) => a.email).sort()).toEqual([
      "kept@example.fr",
      "recent@example.fr",
    ]);
    expect((await alerts()).some((a) => a.id === kept)).toBe(true);
  });

  it("lists an address's alerts with its personal data", async () => {
    await confirmedAlert(soldOut, "Jeanne@example.fr");
    const found = await findPersonalData("jeanne@EXAMPLE.fr", database.db);
    expect(found.counts).toMatchObject({ requests: 0, alerts: 1 });
    expect(found.alerts[0]).toMatchObject({ offerTitle: "Offre 1", offerReference: "REF-1" });
    expect(found.alerts[0].confirmedAt).toBeInstanceOf(Date);
  });
});
