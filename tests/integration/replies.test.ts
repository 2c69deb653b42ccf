import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { conversationOf, sendReply } from "../../app/features/conversation/conversation.server";
import {
  parseImapUrl,
  readMailbox,
  startMailboxReader,
} from "../../app/features/conversation/mailbox.server";
import { replyAddress } from "../../app/features/conversation/reply-address.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import {
  appState,
  contactRequests,
  mailOutbox,
  requestMessageAttachments,
  requestMessages,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "../../app/platform/schema.server";
import * as attachmentRoute from "../../app/routes/resources/admin-message-attachment";
import * as htmlRoute from "../../app/routes/resources/admin-message-html";
import { listUnattached, purgeUnattached } from "../../app/features/conversation/unattached.server";
import * as personalDataPage from "../../app/routes/admin/personal-data";
import * as unattachedPage from "../../app/routes/admin/unattached-messages";
import {
  erasePersonalData,
  findPersonalData,
  personalDataDocument,
} from "../../app/features/privacy/personal-data.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { DOVECOT_PATH, startTestImapServer, type TestImapServer } from "../support/imap";
import {
  attachmentFixtures,
  FAKE_PDF,
  SMALL_PNG,
  smallPdf,
} from "../support/reply-attachment-fixtures";
import { replyFixtures } from "../support/reply-fixtures";

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
    const request = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Devis",
        offer: null,
      },
      database.db,
    );
    requestId = request.id;
    reference = request.reference;
    await database.db.insert(webhookEndpoints).values({
      url: "https://crm.example.com/hook",
      events: ["request.replied"],
      secret: "whsec_dGVzdA==",
    });
    const sent = await sendReply(
      requestId,
      { subject: `Votre demande ${reference}`, body: "Bonjour", attachQuote: false },
      { id: admin.id, email: admin.email, role: "admin" },
      database.db,
    );
    if (sent.kind !== "queued") throw new Error(sent.kind);
    const [message] = await database.db
      .select()
      .from(requestMessages)
      .where(eq(requestMessages.id, sent.messageId));
    ours = message.messageId;
    tagged = await replyAddress("ventes@example.fr", reference, database.db);
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

  const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
  const messageNamed = async (messageId: string) =>
    (await incoming()).find((row) => row.messageId === messageId)!;
  const filesOf = (id: number) =>
    database.db
      .select()
      .from(requestMessageAttachments)
      .where(eq(requestMessageAttachments.messageId, id))
      .orderBy(asc(requestMessageAttachments.id));
  /** A session of an account with that role. */
  const cookieAs = async (role: "sales" | "catalogue") => {
    const [user] = await database.db
      .insert(users)
      .values({ email: `${role}@example.fr`, passwordHash: "sans mot de passe", role })
      .returning({ id: users.id });
    return sessionCookieFor(user.id);
  };
  /** A resource route's answer as the browser gets it (its body too). */
  const load = (loader: (args: never) => unknown, path: string, params: object, cookie?: string) =>
    loader({ request: makeRequest(path, { cookie }), params, context: testContext } as never);

  it("keeps a reply's files typed by their bytes, once, and says which it refused", async () => {
    const { thunderbird } = attachmentFixtures({
      reference,
      tagged,
      ours,
      buyer: "jeanne@example.fr",
    });
    const pdf = smallPdf();
    await imap.server!.append(thunderbird("tb-files", { pdf }));
    await readMailbox(settings(), database.db);
    const message = await messageNamed("<tb-files@example.fr>");
    expect(message.contactRequestId).toBe(requestId);
    const files = await filesOf(message.id);
    expect(files.map((f) => [f.filename, f.contentType, f.size, f.sha256])).toEqual([
      ["Bon de commande signé.pdf", "application/pdf", pdf.length, sha256(pdf)],
      ["capture.png", "image/png", SMALL_PNG.length, sha256(SMALL_PNG)],
    ]);
    expect(Buffer.from(files[0].data).equals(pdf)).toBe(true);
    // The program named `.pdf` (MZ) is refused, and the message says so after the buyer's words.
    expect(message.body).toMatch(
      /^Voici le bon de commande signé[\s\S]*\n\nPièce jointe non conservée : facture\.pdf \(type non accepté\)$/,
    );
    expect(message.html).toBeNull();

    // Another instance reading the same mailbox from the start stores nothing, files included.
    await database.db.delete(appState).where(like(appState.key, "mailbox:%"));
    expect((await readMailbox(settings(), database.db)).stored).toBe(0);
    expect(await filesOf(message.id)).toHaveLength(2);

    // The conversation lists them; the personal data export names them (not their bytes).
    const shown = (await conversationOf(requestId, database.db)).find((m) => m.id === message.id)!;
    expect(shown.attachments.map((a) => [a.filename, a.size])).toEqual([
      ["Bon de commande signé.pdf", pdf.length],
      ["capture.png", SMALL_PNG.length],
    ]);
    expect(shown.hasHtml).toBe(false);
    const document = personalDataDocument(
      "jeanne@example.fr",
      await findPersonalData("jeanne@example.fr", database.db),
      { name: "ServeurPro", address: "1 rue de l'Exemple", email: "contact@example.fr" },
    );
    const exported = document.contactRequests[0].messages.find((m) => m.attachments.length > 0)!;
    expect(exported.attachments).toEqual([
      {
        fileName: "Bon de commande signé.pdf",
        type: "application/pdf",
        bytes: pdf.length,
        sha256: sha256(pdf),
      },
      {
        fileName: "capture.png",
        type: "image/png",
        bytes: SMALL_PNG.length,
        sha256: sha256(SMALL_PNG),
      },
    ]);
    expect(JSON.stringify(document)).not.toContain(pdf.toString("base64").slice(0, 40));

    // Served to the sales team as a download, and to nobody else.
    const path = `/admin/messages/${message.id}/pieces/${files[0].id}`;
    const params = { messageId: String(message.id), attachmentId: String(files[0].id) };
    const sales = await cookieAs("sales");
    const download = (await load(attachmentRoute.loader, path, params, sales)) as Response;
    expect(download.status).toBe(200);
    expect(Object.fromEntries(download.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="Bon de commande signe.pdf"; filename*=UTF-8''Bon%20de%20commande%20sign%C3%A9.pdf`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const signedOut = await call(attachmentRoute.loader, makeRequest(path), testContext, params);
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/auth\?redirectTo=/);
    const catalogue = await cookieAs("catalogue");
    const refused = await call(
      attachmentRoute.loader,
      makeRequest(path, { cookie: catalogue }),
      testContext,
      params,
    );
    expect(refused.status).toBe(403);
    // A file asked under another message, or a malformed id: the French 404.
    for (const wrong of [
      { ...params, messageId: String(message.id + 1) },
      { ...params, attachmentId: "1e3" },
    ]) {
      const missing = (await load(attachmentRoute.loader, path, wrong, sales)) as Response;
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("Cette pièce jointe n'existe pas");
    }
  });

  it("refuses a file over the limit and beyond ten, and keeps the others", async () => {
    const { thunderbird } = attachmentFixtures({
      reference,
      tagged,
      ours,
      buyer: "jeanne@example.fr",
    });
    const pdf = smallPdf();
    const large = smallPdf(400);
    const pngs = Array.from({ length: 9 }, (_, i) => ({
      name: `photo-${i + 1}.png`,
      type: "image/png",
      bytes: SMALL_PNG,
    }));
    await imap.server!.append(
      thunderbird("tb-limits", {
        pdf,
        extra: [{ name: "annexe.pdf", type: "application/pdf", bytes: large }, ...pngs],
      }),
    );
    await readMailbox({ ...settings(), attachmentMaxBytes: 2048 }, database.db);
    const message = await messageNamed("<tb-limits@example.fr>");
    const files = await filesOf(message.id);
    // The PDF, the capture and eight of the nine photos: ten.
    expect(files.map((f) => f.filename)).toEqual([
      "Bon de commande signé.pdf",
      "capture.png",
      ...pngs.slice(0, 8).map((p) => p.name),
    ]);
    expect(message.body.split("\n\n").at(-1)!.split("\n")).toEqual([
      "Pièce jointe non conservée : facture.pdf (type non accepté)",
      expect.stringMatching(
        /^Pièce jointe non conservée : annexe\.pdf \(trop volumineuse : 4,5\sko, 2\sko au plus\)$/,
      ),
      "Pièce jointe non conservée : photo-9.png (au-delà de 10 pièces jointes)",
    ]);
    expect(large.length).toBeGreaterThan(2048);
    expect(FAKE_PDF.subarray(0, 2).toString()).toBe("MZ");
  });

  it("keeps an HTML reply's text and its layout without script, tracker or remote content", async () => {
    const { outlookHtml } = attachmentFixtures({
      reference,
      tagged,
      ours,
      buyer: "jeanne@example.fr",
    });
    await imap.server!.append(outlookHtml);
    await readMailbox(settings(), database.db);
    const message = await messageNamed(
      "<AM0PR07MB4321HTML@AM0PR07MB4321.eurprd07.prod.outlook.com>",
    );
    expect(message.contactRequestId).toBe(requestId);
    // The text: the words, the links' words, no markup, no address of the links or images.
    expect(message.body).toContain("Bonjour,");
    expect(message.body).toContain("Nous confirmons la commande du serveur Xeon.");
    expect(message.body).toContain("Voir le détail ou nos conditions.");
    for (const absent of [
      "<",
      "tracker",
      "alert(",
      "javascript:",
      "https://",
      "Logo",
      "MsoNormal",
    ]) {
      expect(message.body, absent).not.toContain(absent);
    }
    // The signature's logo (inline, by Content-ID) is layout, not a file: not kept, not said.
    expect(await filesOf(message.id)).toEqual([]);
    expect(message.body).not.toContain("Pièce jointe");
    // The layout: sanitised once, when stored.
    const html = message.html!;
    expect(html).toContain("Nous confirmons la commande du <b>serveur Xeon</b>.");
    expect(html).toContain(
      '<a href="https://www.example.com/conditions" rel="noopener noreferrer" target="_blank">nos conditions</a>',
    );
    expect(html).toContain("<table><tr><td>Quantité</td><td>2</td></tr></table>");
    for (const absent of [
      "<script",
      "document.cookie",
      "<style",
      "tracker.example.net",
      "<img",
      "cid:",
      "onclick",
      "onmouseover",
      "javascript:",
      "<iframe",
      "<form",
      "<input",
      "evil.example.net",
      "style=",
      "class=",
      "<meta",
    ]) {
      expect(html, absent).not.toContain(absent);
    }
    const [shown] = (await conversationOf(requestId, database.db)).filter(
      (m) => m.id === message.id,
    );
    expect(shown.hasHtml).toBe(true);

    // Shown to the sales team as a page of its own, that may load and run nothing.
    const path = `/admin/messages/${message.id}/html`;
    const params = { messageId: String(message.id) };
    const page = (await load(htmlRoute.loader, path, params, await cookieAs("sales"))) as Response;
    expect(page.status).toBe(200);
    expect(Object.fromEntries(page.headers)).toMatchObject({
      "content-type": "text/html; charset=utf-8",
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "referrer-policy": "no-referrer",
    });
    const policy = page.headers.get("content-security-policy")!;
    expect(policy).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; sandbox\b/);
    expect(policy).not.toMatch(/allow-scripts|allow-same-origin|https?:/);
    const text = await page.text();
    expect(text).toMatch(/^<!doctype html>\n<html lang="fr">/);
    expect(text).toContain(
      `<title>Mise en forme d&#39;origine : RE: Votre demande ${reference}</title>`,
    );
    expect(text).toContain(html);
    expect(text).not.toContain("<script");
    // Refused to others; a message without HTML has no such page.
    const signedOut = await call(htmlRoute.loader, makeRequest(path), testContext, params);
    expect(signedOut.status).toBe(302);
    const catalogue = await cookieAs("catalogue");
    const refused = await call(
      htmlRoute.loader,
      makeRequest(path, { cookie: catalogue }),
      testContext,
      params,
    );
    expect(refused.status).toBe(403);
    const [plain] = await database.db
      .select({ id: requestMessages.id })
      .from(requestMessages)
      .where(eq(requestMessages.direction, "outbound"));
    const missing = (await load(
      htmlRoute.loader,
      path,
      { messageId: String(plain.id) },
      await sessionCookieFor((await signedInAdmin()).admin.id),
    )) as Response;
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Ce message n'existe pas");
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
