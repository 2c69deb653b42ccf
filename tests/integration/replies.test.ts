import { existsSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { conversationOf } from "../../app/features/conversation/conversation.server";
import {
  parseImapUrl,
  readMailbox,
  startMailboxReader,
} from "../../app/features/conversation/mailbox.server";
import {
  contactRequests,
  mailOutbox,
  requestMessages,
  webhookDeliveries,
} from "../../app/platform/schema.server";
import { listUnattached, purgeUnattached } from "../../app/features/conversation/unattached.server";
import * as personalDataPage from "../../app/routes/admin/personal-data";
import * as unattachedPage from "../../app/routes/admin/unattached-messages";
import {
  erasePersonalData,
  findPersonalData,
} from "../../app/features/privacy/personal-data.server";
import { personalDataDocument } from "../../app/features/privacy/personal-data-document.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { DOVECOT_PATH, startTestImapServer, type TestImapServer } from "../support/imap";
import { replyFixtures } from "../support/reply-fixtures";
import { requestAwaitingReply } from "../support/reply-suite";

// The buyers' replies read from a real IMAP server (Debian's Dovecot on loopback, messages put in
// with APPEND), as the common mail clients shape them (tests/support/reply-fixtures.ts): each
// attached to its request once, by the request's tagged address or by the thread; automatic
// answers and bounces recognised; a message nobody can place kept apart (`Non rattachés`).
const imap = vi.hoisted(() => ({ server: undefined as TestImapServer | undefined }));
vi.hoisted(() => {
  process.env.REPLY_MAILBOX = "ventes@example.fr";
  process.env.SITE_URL = "http://www.example.fr";
});

const { database, signedInAdmin, sessionCookieFor } = useAdminSuite();

// Dovecot comes from scripts/system-deps.sh: CI always has it; a machine without it skips, and says so.
const noDovecot = !existsSync(DOVECOT_PATH) && !process.env.CI;
if (noDovecot) console.warn(`replies.test.ts skipped: no ${DOVECOT_PATH} (scripts/system-deps.sh)`);

beforeAll(async () => {
  if (!noDovecot) imap.server = await startTestImapServer();
});
afterAll(async () => {
  await imap.server?.stop();
});

describe.skipIf(noDovecot)(`replies read from the mailbox (${testDatabaseKind})`, () => {
  let requestId: number;
  let reference: string;
  let ours: string;
  let tagged: string;

  beforeEach(async () => {
    const { admin } = await signedInAdmin();
    ({ requestId, reference, ours, tagged } = await requestAwaitingReply(database.db, admin));
  });

  const settings = () => parseImapUrl(imap.server!.url, 60);
  const incoming = () =>
    database.db
      .select()
      .from(requestMessages)
      .where(eq(requestMessages.direction, "inbound"))
      .orderBy(asc(requestMessages.id));

  it("attaches each client's reply once, recognises automatic answers and bounces", async () => {
    const fixtures = replyFixtures({ reference, tagged, ours, buyer: "jeanne@example.fr" });
    for (const fixture of Object.values(fixtures)) await imap.server!.append(fixture);

    const first = await readMailbox(settings(), database.db);
    expect(first).toEqual({ read: 7, stored: 7 });
    const rows = await incoming();
    const bySubject = (start: string) => rows.find((r) => r.subject.startsWith(start))!;
    expect(
      rows.map((r) => [r.subject.split(" ")[0], r.kind, r.contactRequestId === requestId]),
    ).toEqual([
      ["Re:", "message", true], // Gmail: the tagged address and the thread
      ["RE:", "message", true], // Outlook: the tagged address alone (no In-Reply-To)
      ["Re:", "message", true], // Apple Mail
      ["Re:", "message", true], // Thunderbird, to the plain mailbox: the thread alone
      ["Réponse", "auto_reply", true],
      ["Undelivered", "bounce", true],
      ["Question", "message", false],
    ]);
    expect(bySubject("Question").contactRequestId).toBeNull();
    expect(rows[0].body).toContain("Parfait, merci pour la rapidité");
    expect(rows[1].body).toContain("Nous validons la configuration.");
    expect(rows[0].authorEmail).toBe("jeanne@example.fr");

    // The bounce marks the address failing; the buyer's messages are the request's activity.
    const [request] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, requestId));
    expect(request.emailFailedAt).not.toBeNull();
    // `request.replied` once per message the buyer wrote (four), none for the automatic ones.
    const deliveries = await database.db.select().from(webhookDeliveries);
    expect(deliveries.filter((d) => d.eventType === "request.replied")).toHaveLength(4);
    // And the team is told of each (nobody owns the request: NOTIFY_EMAIL), by the outbox.
    const told = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "request_replied"));
    expect(told).toHaveLength(4);

    // Read again, and by two readers at once after one more message: nothing twice.
    expect(await readMailbox(settings(), database.db)).toEqual({ read: 0, stored: 0 });
    await imap.server!.append(
      fixtures.gmail.replace(/Message-ID: <[^>]+>/, "Message-ID: <second@mail.gmail.com>"),
    );
    const both = await Promise.all([
      readMailbox(settings(), database.db),
      readMailbox(settings(), database.db),
    ]);
    expect(both.reduce((sum, r) => sum + r.stored, 0)).toBe(1);
    expect(await incoming()).toHaveLength(8);

    const conversation = await conversationOf(requestId, database.db);
    expect(conversation[0].direction).toBe("outbound");
    expect(conversation.filter((m) => m.direction === "inbound")).toHaveLength(7);
  });

  it("lets the sales team attach a stray message by its reference, or delete it", async () => {
    const fixtures = replyFixtures({ reference, tagged, ours, buyer: "jeanne@example.fr" });
    await imap.server!.append(
      fixtures.stray
        .replace("<stray-5678@autre.example>", "<stray-9@autre.example>")
        .replace("Question sur vos tarifs", "Question sur vos délais"),
    );
    await imap.server!.append(
      fixtures.stray
        .replace("<stray-5678@autre.example>", "<stray-10@autre.example>")
        .replace("Question sur vos tarifs", "Publicité"),
    );
    await readMailbox(settings(), database.db);
    const { messages, count } = await listUnattached(database.db);
    expect(count).toBe(messages.length);
    const question = messages.find((m) => m.subject === "Question sur vos délais")!;
    const advert = messages.find((m) => m.subject === "Publicité")!;
    const cookie = await sessionCookieFor((await signedInAdmin()).admin.id);
    const post = (form: Record<string, string>) =>
      call(unattachedPage.action, makeRequest("/admin/messages", { cookie, form }));

    const wrong = await post({
      intent: "attach",
      id: String(question.id),
      reference: "DEM-2026-99999",
    });
    expect(wrong.status).toBe(404);
    const malformed = await post({
      intent: "attach",
      id: String(question.id),
      reference: "demande 12",
    });
    expect(malformed.status).toBe(400);
    const attached = await post({ intent: "attach", id: String(question.id), reference });
    expect(attached.status).toBe(302);
    const [row] = await database.db
      .select()
      .from(requestMessages)
      .where(eq(requestMessages.id, question.id));
    expect(row.contactRequestId).toBe(requestId);
    // Attached once: a second post finds nothing left to attach.
    expect((await post({ intent: "attach", id: String(question.id), reference })).status).toBe(404);

    // Asked first (the page's confirmation), then done once confirmed.
    const asked = await post({ intent: "discard", id: String(advert.id) });
    expect(asked.location).toBe(`/admin/messages?discard=${advert.id}`);
    expect((await listUnattached(database.db)).count).toBe(count - 1);
    expect((await post({ intent: "discard", id: String(advert.id), confirm: "yes" })).status).toBe(
      302,
    );
    const left = await listUnattached(database.db);
    expect(left.messages.map((m) => m.id)).not.toContain(advert.id);
    expect(left.messages.map((m) => m.id)).not.toContain(question.id);
    expect(left.count).toBe(count - 2);

    // Left waiting 90 days, a message goes with the daily purge.
    await database.db
      .update(requestMessages)
      .set({ createdAt: new Date(Date.now() - 91 * 24 * 3600 * 1000) })
      .where(eq(requestMessages.id, left.messages[0].id));
    expect(await purgeUnattached(database.db)).toBe(1);
    expect((await listUnattached(database.db)).count).toBe(left.count - 1);
  });

  it("counts a stray message as its writer's data: exported, and erased with them", async () => {
    const fixtures = replyFixtures({ reference, tagged, ours, buyer: "jeanne@example.fr" });
    await imap.server!.append(
      fixtures.stray.replace("<stray-5678@autre.example>", "<stray-rgpd@autre.example>"),
    );
    await readMailbox(settings(), database.db);
    const { admin } = await signedInAdmin();
    const found = await findPersonalData("Paul@autre.example", database.db);
    expect(found.counts.messages).toBeGreaterThan(0);
    const document = personalDataDocument("paul@autre.example", found, {
      name: "ServeurPro",
      address: "1 rue de l'Exemple",
      email: "contact@example.fr",
    });
    expect(document.unattachedMessages.map((m) => m.body)).toContain(
      "Bonjour, avez-vous des serveurs GPU ?",
    );
    // The personal data page shows it, and offers the erasure though no request is held.
    const page = await call(
      personalDataPage.loader,
      makeRequest("/admin/personal-data?email=paul%40autre.example", {
        cookie: await sessionCookieFor(admin.id),
      }),
    );
    expect(JSON.stringify(page.data)).toContain("Bonjour, avez-vous des serveurs GPU ?");
    const erased = await erasePersonalData(
      "paul@autre.example",
      { context: testContext, actor: { id: admin.id, email: admin.email } },
      database.db,
    );
    expect(erased.counts.messages).toBe(found.counts.messages);
    expect((await findPersonalData("paul@autre.example", database.db)).counts.messages).toBe(0);
  });

  /** Waits until `check` gives something (never a fixed sleep), or fails after `ms`. */
  async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 10_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("reads a reply as soon as it arrives where the server offers IDLE, and stops at once", async () => {
    const fixtures = replyFixtures({ reference, tagged, ours, buyer: "jeanne@example.fr" });
    const server = imap.server!;
    expect(server.openSessions()).toBe(0);
    // A poll every minute: only IDLE can bring the reply within the deadline below.
    const reader = startMailboxReader(database, { ...settings(), pollMs: 60_000 });
    let stopped = false;
    try {
      await reader.readNow();
      // One connection stays open on the mailbox.
      expect(server.openSessions()).toBe(1);
      await server.append(
        fixtures.apple.replace(/Message-Id: <[^>]+>/, "Message-Id: <idle-1@example.fr>"),
      );
      const found = await eventually("the reply read", async () =>
        (await incoming()).find((m) => m.messageId === "<idle-1@example.fr>"),
      );
      expect(found.contactRequestId).toBe(requestId);
      const stopping = Date.now();
      await reader.stop();
      stopped = true;
      expect(Date.now() - stopping).toBeLessThan(1_500);
      // And the connection is closed (Dovecot logs it a moment later).
      await eventually(
        "the connection closed",
        async () => (server.openSessions() === 0 ? true : undefined),
        3_000,
      );
    } finally {
      if (!stopped) await reader.stop();
    }
  });
});
