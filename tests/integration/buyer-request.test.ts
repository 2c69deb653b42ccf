import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import {
  addBuyerMessage,
  buyerRequestPage,
} from "../../app/features/buyer-request/buyer-request.server";
import { askForLink } from "../../app/features/buyer-request/request-link-ask.server";
import { prepareRequestLinkMail } from "../../app/features/buyer-request/request-link-mail.server";
import {
  drawRequestLink,
  requestOfLink,
} from "../../app/features/buyer-request/request-link.server";
import { attributionOf } from "../../app/features/attribution/attribution.server";
import {
  countOfferView,
  flushOfferViews,
  offerAudience,
  purgeOfferViews,
} from "../../app/features/attribution/offer-views.server";
import {
  requestSources,
  requestsBySource,
} from "../../app/features/attribution/request-sources.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { MAIL_KINDS } from "../../app/features/mail/mail-outbox.server";
import type { MailSettings } from "../../app/features/mail/mail-settings.server";
import { encodeAttribution } from "../../app/lib/attribution";
import {
  contactRequests,
  mailOutbox,
  offerViews,
  requestMessages,
} from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

// Issue 42: `Ma demande` (the secret link, the page, the buyer's message, the link asked again)
// and where requests come from (utm_*, referring site, the views per offer and day).
vi.hoisted(() => {
  process.env.SITE_URL = "https://www.example.fr";
});

const database = useTestDatabase({ truncate: true });

const settings = {
  smtpUrl: "smtp://localhost:2525",
  to: ["ventes@example.fr"],
  from: "ventes@example.fr",
  retryMaxSeconds: 60,
  baseUrl: "https://www.example.fr",
  pricing: { vatRate: 20, display: "ht" },
} as MailSettings;

async function newRequest(email = "jeanne@example.fr") {
  return createContactRequest(
    { name: "Jeanne Achat", email, phone: null, message: "Bonjour", offer: null },
    database.db,
  );
}

describe(`Ma demande (${testDatabaseKind})`, () => {
  it("opens by a 256-bit token whose hash only is stored; a new link replaces the old one", async () => {
    const { id } = await newRequest();
    const token = (await drawRequestLink(id, database.db))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db
      .select({ hash: contactRequests.followTokenHash })
      .from(contactRequests)
      .where(eq(contactRequests.id, id));
    expect(row.hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row.hash).not.toContain(token);
    expect(await requestOfLink(token, database.db)).toBe(id);
    // One character changed (never to itself: a token ending in A would open its own request).
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await requestOfLink(altered, database.db)).toBeUndefined();
    expect(await requestOfLink("court", database.db)).toBeUndefined();
    const next = (await drawRequestLink(id, database.db))!;
    expect(await requestOfLink(token, database.db)).toBeUndefined();
    expect(await requestOfLink(next, database.db)).toBe(id);
  });

  it("shows the reference, the status in words and the conversation; the buyer's message is an incoming reply", async () => {
    const { id, reference } = await newRequest();
    const token = (await drawRequestLink(id, database.db))!;
    await database.db
      .update(contactRequests)
      .set({ status: "in_progress", updatedAt: sql`now() - interval '3 days'` })
      .where(eq(contactRequests.id, id));
    const page = (await buyerRequestPage(token, database.db))!;
    expect(page.reference).toBe(reference);
    expect(page.status).toBe("En cours");
    expect(page.messages).toEqual([]);

    expect(
      await addBuyerMessage(token, "<b>Une question</b> sur la livraison", database.db),
    ).toEqual({
      kind: "added",
    });
    const [message] = await database.db
      .select()
      .from(requestMessages)
      .where(eq(requestMessages.contactRequestId, id));
    expect(message).toMatchObject({
      direction: "inbound",
      kind: "message",
      authorEmail: "jeanne@example.fr",
    });
    const [request] = await database.db
      .select({ updatedAt: contactRequests.updatedAt })
      .from(contactRequests)
      .where(eq(contactRequests.id, id));
    expect(Date.now() - request.updatedAt.getTime()).toBeLessThan(60_000);
    const told = await database.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.contactRequestId, id), eq(mailOutbox.kind, MAIL_KINDS.requestReplied)),
      );
    expect(told).toHaveLength(1);
    const again = (await buyerRequestPage(token, database.db))!;
    // As text: the page renders it escaped, never as HTML.
    expect(again.messages.map((m) => [m.direction, m.body])).toEqual([
      ["inbound", "<b>Une question</b> sur la livraison"],
    ]);
    expect(await addBuyerMessage("x".repeat(43), "Bonjour", database.db)).toEqual({
      kind: "missing",
    });
  });

  it("answers a link asked again the same way whether reference and address match or not", async () => {
    const { id, reference } = await newRequest("Jeanne@Example.fr");
    const client = { ip: "203.0.113.9" };
    const matching = await askForLink(
      { reference, email: "jeanne@example.fr" },
      client,
      database.db,
    );
    const wrongAddress = await askForLink(
      { reference, email: "autre@example.fr" },
      client,
      database.db,
    );
    const unknown = await askForLink(
      { reference: "DEM-2026-99999", email: "jeanne@example.fr" },
      client,
      database.db,
    );
    expect(matching).toEqual({ kind: "answered" });
    expect(wrongAddress).toEqual(matching);
    expect(unknown).toEqual(matching);
    const links = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, MAIL_KINDS.requestLink));
    expect(links.map((l) => l.contactRequestId)).toEqual([id]);
    // Asked again at once: still answered, no second mail within 10 minutes.
    expect(
      await askForLink({ reference, email: "jeanne@example.fr" }, client, database.db),
    ).toEqual(matching);
    expect(
      await database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, MAIL_KINDS.requestLink)),
    ).toHaveLength(1);
    // The client's fifth ask is the last: the sixth is refused, whatever it names.
    await askForLink({ reference, email: "autre@example.fr" }, client, database.db);
    const refused = await askForLink(
      { reference, email: "jeanne@example.fr" },
      client,
      database.db,
    );
    expect(refused.kind).toBe("rate-limited");

    // The mail carries a fresh link, which opens the page.
    const mail = await prepareRequestLinkMail(links[0], {
      settings,
      messageDomain: "example.fr",
      database: database.db,
    });
    if ("failed" in mail) throw new Error(mail.failed);
    const url = /https:\/\/www\.example\.fr\/ma-demande\/([A-Za-z0-9_-]{43})/.exec(
      String(mail.message.text),
    );
    expect(mail.message.to).toBe("Jeanne@Example.fr");
    expect(await requestOfLink(url![1], database.db)).toBe(id);
  });
});

describe(`where requests come from (${testDatabaseKind})`, () => {
  const page = (query: string) => new URL(`https://www.example.fr/offers${query}`);

  it("reads utm_* and an external referring site, else the carried src, else nothing", () => {
    const landing = attributionOf(
      page("?utm_source=newsletter&utm_campaign=novembre&utm_medium=email"),
      "https://mail.example.com/inbox?secret=1",
    );
    expect(landing).toEqual({
      source: "newsletter",
      medium: "email",
      campaign: "novembre",
      term: null,
      content: null,
      referrer: "mail.example.com",
    });
    const src = encodeAttribution(landing);
    expect(src).toBe("newsletter~email~novembre~~~mail.example.com");
    expect(
      attributionOf(page(`?src=${encodeURIComponent(src)}`), "https://www.example.fr/"),
    ).toEqual(landing);
    expect(attributionOf(page(""), "https://www.google.com/")).toMatchObject({
      source: null,
      referrer: "www.google.com",
    });
    expect(attributionOf(page(""), "https://example.fr/offers")).toBeNull();
    expect(attributionOf(page(""), null)).toBeNull();
    // Junk is capped and cleaned, never an error.
    const junk = attributionOf(page(`?utm_source=${"a".repeat(1000)}&src=~~~~~~~~`), null);
    expect(junk?.source).toHaveLength(100);
    expect(attributionOf(page("?src=a~b~c~d~e~not%20a%20host"), null)?.referrer).toBeNull();
  });

  it("stores the visit's origin with the request", async () => {
    const attribution = attributionOf(page("?utm_source=newsletter&utm_campaign=novembre"), null);
    const { id } = await createContactRequest(
      { name: "Jean", email: "jean@example.fr", phone: null, message: "Bonjour", offer: null },
      database.db,
      { attribution },
    );
    const [row] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, id));
    expect(row).toMatchObject({
      source: "newsletter",
      campaign: "novembre",
      medium: null,
      referrer: null,
    });
    expect(await requestsBySource(30, database.db)).toEqual([{ source: "newsletter", count: 1 }]);
    expect(await requestSources(database.db)).toEqual([{ source: "newsletter", count: 1 }]);
  });

  it("counts offer views per day in one row per offer, beside its requests, and purges them after 25 months", async () => {
    const [offer] = await insertOffers(database.db, [buildOffer(1, { slug: "ryzen-vue" })]);
    for (let i = 0; i < 3; i++) countOfferView("ryzen-vue");
    countOfferView("inconnue");
    await flushOfferViews(database.db);
    countOfferView("ryzen-vue");
    await flushOfferViews(database.db);
    const rows = await database.db.select().from(offerViews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ offerId: offer.id, views: 4 });
    await createContactRequest(
      { name: "Jean", email: "jean@example.fr", phone: null, message: "Bonjour", offer: offer.id },
      database.db,
    );
    expect((await offerAudience([offer.id], 30, database.db)).get(offer.id)).toEqual({
      views: 4,
      requests: 1,
    });
    // Paris's midnight (23:00 UTC in winter): the views on either side go to their own day.
    countOfferView("ryzen-vue", new Date("2026-01-14T22:59:59.999Z"));
    countOfferView("ryzen-vue", new Date("2026-01-14T23:00:00.000Z"));
    countOfferView("ryzen-vue", new Date("2026-01-14T23:00:30.000Z"));
    await flushOfferViews(database.db);
    const days = await database.db
      .select({ day: offerViews.day, views: offerViews.views })
      .from(offerViews)
      .where(inArray(offerViews.day, ["2026-01-14", "2026-01-15"]))
      .orderBy(offerViews.day);
    expect(days).toEqual([
      { day: "2026-01-14", views: 1 },
      { day: "2026-01-15", views: 2 },
    ]);
    await database.db
      .delete(offerViews)
      .where(inArray(offerViews.day, ["2026-01-14", "2026-01-15"]));
    await database.db.insert(offerViews).values({ offerId: offer.id, day: "2020-01-01", views: 9 });
    expect(await purgeOfferViews(database.db)).toBe(1);
    expect(await database.db.select().from(offerViews)).toHaveLength(1);
  });
});
