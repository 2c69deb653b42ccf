import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { changeContactStatus } from "../../app/features/desk/contact-changes.server";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { quotePage } from "../../app/features/quotes/quote-page.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import { followUpsOf, runFollowUpChecks } from "../../app/features/follow-ups/follow-ups.server";
import * as followUpsPage from "../../app/routes/admin/follow-ups";
import * as requestPage from "../../app/routes/admin/contact-request";
import * as contactsPage from "../../app/routes/admin/contacts";
import { setClock } from "../../app/platform/clock.server";
import {
  contactRequests,
  mailOutbox,
  quotes,
  requestMessages,
  users,
} from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { startTestSmtpServer, testMailSettings, type TestSmtpServer } from "../support/smtp";

// Follow-ups (issue 40) with the clock moved, never waited for: the first-response deadline in
// business hours (Paris, public holidays), the late notice, the morning digest, the quote opened
// and the quote expiring, each mailed once through a real SMTP server on loopback.
vi.hoisted(() => {
  process.env.SITE_URL = "http://www.example.fr";
  process.env.FIRST_RESPONSE_HOURS = "4";
  process.env.BUSINESS_HOURS = "09:00-18:00";
  process.env.FOLLOW_UP_DIGEST_HOUR = "8";
});

const { database, signedInAdmin, sessionCookieFor } = useAdminSuite();
let smtp: TestSmtpServer;
let worker: MailWorker | undefined;

const settings = () => testMailSettings(smtp);

/** Paris wall-clock times of a week with a public holiday: Thursday 14 May 2026 is Ascension. */
const at = (iso: string) => new Date(iso);
const WEDNESDAY_4PM = at("2026-05-13T14:00:00Z"); // 16:00 in Paris (UTC+2)

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
});
afterEach(async () => {
  setClock(undefined);
  await worker?.stop();
  worker = undefined;
});

describe(`follow-ups with the clock moved (${testDatabaseKind})`, () => {
  let owner: { id: number; email: string; role: "admin" };
  let offerId: number;

  beforeEach(async () => {
    smtp.mails.length = 0;
    const { admin } = await signedInAdmin();
    owner = { id: admin.id, email: admin.email, role: "admin" };
    [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "Xeon", reference: "DED-1", price: "100.00" }),
    ]);
  });

  const newRequest = async (name: string, ownerId: number | null = owner.id) => {
    const { id } = await createContactRequest(
      {
        name,
        email: `${name.toLowerCase()}@example.fr`,
        phone: null,
        message: "Un devis",
        offer: offerId,
      },
      database.db,
    );
    if (ownerId) {
      await database.db.update(contactRequests).set({ ownerId }).where(eq(contactRequests.id, id));
    }
    return id;
  };

  const mailsOf = async (kind: string) =>
    database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind));

  const deliverAll = async () => {
    worker = startMailWorker(database, settings(), mailRenderers, { pollMs: 100 });
    await expect
      .poll(
        async () =>
          (await database.db.select().from(mailOutbox)).filter((m) => m.status === "pending")
            .length,
        {
          timeout: 15_000,
        },
      )
      .toBe(0);
    await worker.stop();
    worker = undefined;
  };

  it("counts the deadline in business hours, tells the owner once when late, and Mes relances puts it first", async () => {
    setClock(WEDNESDAY_4PM);
    const late = await newRequest("Alice");
    const [row] = await database.db
      .select({ due: contactRequests.firstResponseDueAt })
      .from(contactRequests)
      .where(eq(contactRequests.id, late));
    // 2 h on Wednesday (16:00-18:00), Thursday is Ascension, 2 h on Friday: Friday 11:00 Paris.
    expect(row.due?.toISOString()).toBe("2026-05-15T09:00:00.000Z");

    // Thursday (a holiday): not late yet; nothing queued.
    setClock(at("2026-05-14T15:00:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("request_late")).toHaveLength(0);
    expect(await followUpsOf(owner.id, undefined, database.db)).toHaveLength(0);

    // Friday 11:30: late, told once however many times the check runs (two instances).
    setClock(at("2026-05-15T09:30:00Z"));
    await Promise.all([
      runFollowUpChecks(undefined, database.db),
      runFollowUpChecks(undefined, database.db),
    ]);
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("request_late")).toHaveLength(1);

    // Another request of the owner with a follow-up due today comes after the late one.
    const planned = await newRequest("Bruno");
    await changeContactStatus(planned, "in_progress", owner, database.db);
    await database.db
      .update(contactRequests)
      .set({ nextActionOn: "2026-05-15" })
      .where(eq(contactRequests.id, planned));
    const list = await followUpsOf(owner.id, undefined, database.db);
    expect(list.map((item) => [item.id, item.reasons.map((r) => r.kind)])).toEqual([
      [late, ["late"]],
      [planned, ["due"]],
    ]);

    await deliverAll();
    const lateMails = smtp.mails.filter((m) =>
      /sans réponse : délai dépassé/.test(m.parsed.subject ?? ""),
    );
    expect(lateMails).toHaveLength(1);
    expect(lateMails[0].envelope.to).toEqual([owner.email]);
    expect(lateMails[0].parsed.text).toContain(`/admin/contacts/${late}`);

    // An answer (a status change) takes it off the late list.
    await changeContactStatus(late, "in_progress", owner, database.db);
    expect((await followUpsOf(owner.id, undefined, database.db)).map((i) => i.id)).toEqual([
      planned,
    ]);
  });

  it("sends each owner one morning digest on working days, from the set hour", async () => {
    setClock(at("2026-05-13T08:00:00Z"));
    const id = await newRequest("Chloé");
    await changeContactStatus(id, "in_progress", owner, database.db);
    await database.db
      .update(contactRequests)
      .set({ nextActionOn: "2026-05-15" })
      .where(eq(contactRequests.id, id));
    // A Commercial with nothing due gets no digest.
    await database.db
      .insert(users)
      .values({ email: "vide@example.fr", passwordHash: "x", role: "sales" });

    // Friday 07:30 Paris: too early. 08:05: one digest, however many checks.
    setClock(at("2026-05-15T05:30:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("follow_up_digest")).toHaveLength(0);
    setClock(at("2026-05-15T06:05:00Z"));
    await Promise.all([
      runFollowUpChecks(undefined, database.db),
      runFollowUpChecks(undefined, database.db),
    ]);
    setClock(at("2026-05-15T10:00:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("follow_up_digest")).toHaveLength(1);
    await deliverAll();
    const digests = smtp.mails.filter((m) =>
      (m.parsed.subject ?? "").startsWith("Vos relances du"),
    );
    expect(digests).toHaveLength(1);
    expect(digests[0].parsed.subject).toBe("Vos relances du vendredi 15 mai : 1 demande");
    expect(digests[0].envelope.to).toEqual([owner.email]);
    expect(digests[0].parsed.text).toContain("À relancer le vendredi 15 mai");

    // Saturday: no digest (not a working day), even with the follow-up still due.
    setClock(at("2026-05-16T07:00:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("follow_up_digest")).toHaveLength(1);
    // Monday: the next one.
    setClock(at("2026-05-18T07:00:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("follow_up_digest")).toHaveLength(2);
  });

  it("tells the owner when the buyer first opens the quote, and three days before it expires", async () => {
    setClock(at("2026-05-04T08:00:00Z"));
    const id = await newRequest("Denis");
    await sendQuote(id, { validityDays: 10, discounts: [] }, owner, database.db);
    const [{ id: quoteId }] = await database.db.select({ id: quotes.id }).from(quotes);
    const link = (await drawQuoteLink(quoteId, database.db))!;

    // A mail scanner's visit is not the buyer's; the buyer's first opening is told once.
    setClock(at("2026-05-05T09:00:00Z"));
    await quotePage(link.token, { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)" });
    expect(await mailsOf("quote_opened")).toHaveLength(0);
    const browser = { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/153.0" };
    await Promise.all([quotePage(link.token, browser), quotePage(link.token, browser)]);
    await quotePage(link.token, browser);
    expect(await mailsOf("quote_opened")).toHaveLength(1);

    // Expiring on the 14th: nothing on the 10th, one reminder on the 11th however many checks.
    setClock(at("2026-05-10T09:00:00Z"));
    await runFollowUpChecks(undefined, database.db);
    expect(await mailsOf("quote_reminder")).toHaveLength(0);
    setClock(at("2026-05-11T09:00:00Z"));
    await Promise.all([
      runFollowUpChecks(undefined, database.db),
      runFollowUpChecks(undefined, database.db),
    ]);
    expect(await mailsOf("quote_reminder")).toHaveLength(1);

    await deliverAll();
    const opened = smtp.mails.filter((m) => /ouvert par le client/.test(m.parsed.subject ?? ""));
    expect(opened).toHaveLength(1);
    expect(opened[0].envelope.to).toEqual([owner.email]);
    expect(opened[0].parsed.text).toContain(
      "a été ouvert pour la première fois le 5 mai 2026 à 11:00",
    );
    expect(
      smtp.mails.filter((m) => /sans réponse : il expire/.test(m.parsed.subject ?? "")),
    ).toHaveLength(1);
  });

  it("lists the buyer's unanswered reply in Mes relances until the team acts", async () => {
    setClock(at("2026-05-12T08:00:00Z"));
    const id = await newRequest("Emma");
    await changeContactStatus(id, "in_progress", owner, database.db);
    await database.db.insert(requestMessages).values([
      {
        contactRequestId: id,
        direction: "inbound",
        kind: "auto_reply",
        authorEmail: "emma@example.fr",
        subject: "Absent",
        body: "Je suis absente",
        messageId: "<auto@example.fr>",
      },
    ]);
    // An out-of-office is not an answer to act on.
    expect(await followUpsOf(owner.id, undefined, database.db)).toHaveLength(0);
    await database.db.insert(requestMessages).values({
      contactRequestId: id,
      direction: "inbound",
      kind: "message",
      authorEmail: "emma@example.fr",
      subject: "Re : votre demande",
      body: "Oui, pour 36 mois",
      messageId: "<reply@example.fr>",
    });
    const [item] = await followUpsOf(owner.id, undefined, database.db);
    expect(item.reasons.map((r) => r.kind)).toEqual(["replied"]);
  });

  it("sets 'À relancer le' from the request's page and in bulk, refuses a past or impossible date", async () => {
    setClock(at("2026-05-12T08:00:00Z"));
    const cookie = await sessionCookieFor(owner.id);
    const one = await newRequest("Fanny");
    const two = await newRequest("Gilles");
    const posted = (path: string, form: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) {
        for (const v of [value].flat()) body.append(name, v);
      }
      const { url, headers } = makeRequest(path, { method: "POST", cookie });
      return new Request(url, { method: "POST", headers, body });
    };
    const post = (path: string, form: Record<string, string | string[]>, id?: number) =>
      call(
        (id ? requestPage : contactsPage).action,
        posted(path, form),
        undefined,
        id ? { id: String(id) } : {},
      );
    const dayOf = async (id: number) =>
      (
        await database.db
          .select({ day: contactRequests.nextActionOn })
          .from(contactRequests)
          .where(eq(contactRequests.id, id))
      )[0].day;

    for (const [value, message] of [
      ["2026-05-11", "Choisissez aujourd'hui ou une date à venir."],
      ["2026-02-30", "Cette date n'existe pas."],
      ["demain", "Indiquez une date (jj/mm/aaaa)."],
      ["2031-01-01", "Choisissez une date dans les deux ans."],
    ]) {
      const refused = await post(
        `/admin/contacts/${one}`,
        { intent: "follow-up", nextActionOn: value },
        one,
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.data)).toContain(message);
    }
    expect(await dayOf(one)).toBeNull();

    const saved = await post(
      `/admin/contacts/${one}`,
      { intent: "follow-up", nextActionOn: "2026-05-20" },
      one,
    );
    expect(saved.status).toBe(302);
    expect(await dayOf(one)).toBe("2026-05-20");

    const bulk = await post("/admin/contacts", {
      intent: "bulk",
      bulk: "follow-up",
      nextActionOn: "2026-05-12",
      ids: [String(one), String(two)],
    });
    expect(bulk.status).toBe(302);
    expect([await dayOf(one), await dayOf(two)]).toEqual(["2026-05-12", "2026-05-12"]);

    // Both are due today: on the page, then one is cleared from it.
    const page = await call(followUpsPage.loader, makeRequest("/admin/relances", { cookie }));
    expect(page.status).toBe(200);
    expect((page.data as { mine: { id: number }[] }).mine.map((i) => i.id).sort()).toEqual(
      [one, two].sort(),
    );
    const cleared = await call(
      followUpsPage.action,
      posted("/admin/relances", {
        intent: "follow-up",
        id: String(two),
        clear: "1",
        nextActionOn: "",
      }),
    );
    expect(cleared.status).toBe(302);
    expect(await dayOf(two)).toBeNull();
  });
});
