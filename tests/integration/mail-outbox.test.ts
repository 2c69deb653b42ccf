import { createServer, type Socket } from "node:net";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type DatabaseHandle } from "../../app/platform/db.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import {
  claimDueMails,
  enqueueContactNotification,
  mailOutboxOverview,
  releaseMailClaim,
  retryFailedMail,
} from "../../app/features/mail/mail-outbox.server";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { verifySmtp, type MailSettings } from "../../app/features/mail/mail-settings.server";
import { contactRequests, mailOutbox, offers } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";
import { SMTP_PASSWORD, startTestSmtpServer, type TestSmtpServer } from "../support/smtp";

// The outbox against a real SMTP server on loopback, on PGlite and (TEST_DB=postgres) PostgreSQL.
const database = useTestDatabase();
let smtp: TestSmtpServer;
let offerId: number;
const workers: MailWorker[] = [];

const settings = (): MailSettings => ({
  smtpUrl: smtp.url,
  to: ["ventes@example.fr", "direction@example.fr"],
  from: { name: "ServeurPro", address: "site@example.fr" },
  retryMaxSeconds: 1,
  baseUrl: "https://www.example.fr",
  pricing: { vatRate: 20, display: "ht" },
});

function startWorker(handle: DatabaseHandle = database, leaseSeconds = 300): MailWorker {
  const worker = startMailWorker(handle, settings(), mailRenderers, {
    listenUrl: database.databaseUrl,
    pollMs: 500,
    leaseSeconds,
  });
  workers.push(worker);
  return worker;
}

async function stopWorkers() {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const visitor = (n: number, offer: number | null = null) => ({
  name: `Visiteur ${n}`,
  email: `visiteur${n}@example.com`,
  phone: null,
  message: `Bonjour ${n}`,
  offer,
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const outbox = () => database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
/** Contact ids in the received mails, from the Message-ID the worker sets. */
const mailedContactIds = () =>
  smtp.mails
    .map((m) => Number(/<contact-(\d+)\./.exec(m.parsed.messageId ?? "")?.[1]))
    .sort((a, b) => a - b);

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const [offer] = await database.db
    .insert(offers)
    .values({
      slug: "serveur-pro",
      title: "Serveur Pro <Xeon>",
      reference: "SRV-001",
      cpu: "Xeon",
      ram: "64 Go",
      storage: "2 To",
      price: "899.99",
    })
    .returning({ id: offers.id });
  offerId = offer.id;
}, 60_000);

afterEach(async () => {
  await stopWorkers();
  smtp.rejectWith(null);
  await smtp.start();
  smtp.mails.length = 0;
  await database.db.delete(mailOutbox);
});

afterAll(async () => {
  await stopWorkers();
  await smtp?.stop();
});

describe(`mail outbox (${testDatabaseKind})`, () => {
  it("sends one mail per request with the request's content, escaped, to every address", async () => {
    const startedAt = Date.now();
    const { id } = await createContactRequest({
      name: "Zoé <b>Dupont</b>",
      email: "zoe@example.com",
      phone: "06 12 34 56 78",
      message: "Ligne 1\nLigne 2 <script>alert(1)</script>",
      offer: offerId,
    });
    expect((await outbox()).map((m) => [m.contactRequestId, m.status])).toEqual([[id, "pending"]]);
    startWorker();
    const [mail] = await smtp.waitForMails(1);
    console.log(`[mail] request to mail accepted by SMTP: ${mail.receivedAt - startedAt} ms`);

    expect(mail.envelope.to).toEqual(["ventes@example.fr", "direction@example.fr"]);
    expect(mail.envelope.from).toBe("site@example.fr");
    const p = mail.parsed;
    expect(p.subject).toBe("Nouvelle demande de contact : Zoé <b>Dupont</b> (SRV-001)");
    expect(p.replyTo?.map((a) => ("address" in a ? a.address : ""))).toEqual(["zoe@example.com"]);
    expect(p.from && "address" in p.from ? p.from.address : "").toBe("site@example.fr");
    expect(p.text).toContain("Nom : Zoé <b>Dupont</b>\n");
    expect(p.text).toContain("Téléphone : 06 12 34 56 78\n");
    expect(p.text).toMatch(/Offre : Serveur Pro <Xeon> \(SRV-001\), 899,99\s€\sHT\/mois/);
    expect(p.text).toContain("Message :\nLigne 1\nLigne 2 <script>alert(1)</script>\n");
    expect(p.text).toContain(`Voir la demande : https://www.example.fr/admin/contacts/${id}`);
    expect(p.html).toContain("Zoé &lt;b&gt;Dupont&lt;/b&gt;");
    expect(p.html).toContain("Ligne 1<br>\nLigne 2 &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(p.html).toContain("Serveur Pro &lt;Xeon&gt; (SRV-001)");
    expect(p.html).not.toContain("<script>");
    expect(p.html).toContain(`href="https://www.example.fr/admin/contacts/${id}"`);
    // The password of SMTP_URL never shows in what was sent.
    expect(mail.raw).not.toContain(SMTP_PASSWORD);

    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    const [row] = await outbox();
    expect(row.attempts).toBe(1);
    expect(row.sentAt).not.toBeNull();
    expect(row.lockedUntil).toBeNull();
    await stopWorkers();
    expect(smtp.mails).toHaveLength(1);
  });

  it("renders at send time: the offer's current price, or its snapshot once deleted", async () => {
    const [temporary] = await database.db
      .insert(offers)
      .values({
        slug: "ephemere",
        title: "Offre éphémère",
        reference: "EPH-9",
        cpu: "x",
        ram: "x",
        storage: "x",
        price: "10.00",
      })
      .returning({ id: offers.id });
    const priced = await createContactRequest(visitor(1, offerId));
    const deleted = await createContactRequest(visitor(2, temporary.id));
    await database.db.update(offers).set({ price: "950.00" }).where(eq(offers.id, offerId));
    await database.db.delete(offers).where(eq(offers.id, temporary.id));
    startWorker();
    const mails = await smtp.waitForMails(2);
    const about = (id: number) => mails.find((m) => m.parsed.text?.includes(`/contacts/${id}\n`));
    expect(about(priced.id)?.parsed.text).toMatch(/\(SRV-001\), 950,00\s€\sHT\/mois/);
    expect(about(deleted.id)?.parsed.subject).toBe(
      "Nouvelle demande de contact : Visiteur 2 (EPH-9)",
    );
    expect(about(deleted.id)?.parsed.text).toContain(
      "Offre : Offre éphémère (EPH-9), offre supprimée depuis",
    );
  });

  it("keeps a honeypot hit as suspected spam and never mails it", async () => {
    const spam = await createContactRequest(visitor(3), undefined, { suspectedSpam: true });
    const [stored] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, spam.id));
    expect(stored.suspectedSpam).toBe(true);
    const person = await createContactRequest(visitor(4));
    expect((await outbox()).map((m) => m.contactRequestId)).toEqual([person.id]);
    startWorker();
    await smtp.waitForMails(1);
    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    await stopWorkers();
    expect(mailedContactIds()).toEqual([person.id]);
  });

  it("sends the mail of a suspected spam once it is marked as a real request", async () => {
    const { id } = await createContactRequest(visitor(5), undefined, { suspectedSpam: true });
    startWorker();
    // What 'Ce n'est pas du spam' does: un-flag and queue in one transaction.
    await database.db.transaction(async (tx) => {
      await tx
        .update(contactRequests)
        .set({ suspectedSpam: false })
        .where(eq(contactRequests.id, id));
      await enqueueContactNotification(id, tx);
    });
    await smtp.waitForMails(1);
    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    await stopWorkers();
    expect(mailedContactIds()).toEqual([id]);
  });

  it("keeps the database free while a send hangs (SMTP is spoken outside any transaction); a stop gives the claim back", async () => {
    // A relay that accepts the connection and never says a word.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const connection = new Promise<void>((resolve) => (connected = resolve));
    const hung = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const port = (hung.address() as { port: number }).port;
    try {
      const first = await createContactRequest(visitor(60));
      const worker = startMailWorker(
        database,
        { ...settings(), smtpUrl: `smtp://127.0.0.1:${port}` },
        mailRenderers,
        { listenUrl: database.databaseUrl, pollMs: 500 },
      );
      workers.push(worker);
      await connection;
      // The worker is in the middle of sending: pages and forms still use the database.
      const second = await createContactRequest(visitor(61));
      const rows = await outbox();
      expect(rows.map((m) => m.contactRequestId)).toEqual([first.id, second.id]);
      expect(rows[0].lockedUntil).not.toBeNull();
      expect(sockets.every((s) => !s.destroyed)).toBe(true);
      // A stop (SIGTERM) that the hung send outlasts gives the claim back: another instance
      // takes the mail at once, not after its 5-minute lease.
      await worker.stop(100);
      const [held] = await outbox();
      expect([held.status, held.lockedUntil]).toEqual(["pending", null]);
      const claimedAgain = await claimDueMails(10, 300, database.db);
      expect(claimedAgain.map((m) => m.id).sort()).toEqual(rows.map((m) => m.id).sort());
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });

  it("loses nothing while SMTP is down, then sends each mail once when it is back", async () => {
    await smtp.stop();
    startWorker();
    const ids = [];
    for (let n = 10; n < 13; n++) ids.push((await createContactRequest(visitor(n))).id);
    await waitUntil("an attempt on every mail", async () =>
      (await outbox()).every((m) => m.attempts >= 2 && m.lastError !== null),
    );
    const waiting = await outbox();
    expect(waiting.every((m) => m.status === "pending")).toBe(true);
    expect(waiting[0].lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
    const overview = await mailOutboxOverview(database.db);
    expect(overview.pending).toBe(3);
    expect(overview.troubled.map((t) => t.status)).toEqual(["pending", "pending", "pending"]);

    await smtp.start();
    await smtp.waitForMails(3);
    await waitUntil("every mail marked sent", async () =>
      (await outbox()).every((m) => m.status === "sent"),
    );
    await stopWorkers();
    expect(mailedContactIds()).toEqual(ids.sort((a, b) => a - b));
  });

  it("retries mails the SMTP server refuses (451) and sends them once it accepts", async () => {
    smtp.rejectWith({ code: 451, message: "Try again later" });
    startWorker();
    const { id } = await createContactRequest(visitor(20));
    await waitUntil("two refused attempts", async () => smtp.rejected >= 2);
    const [row] = await outbox();
    expect(row.lastError).toContain("451");
    smtp.rejectWith(null);
    await smtp.waitForMails(1);
    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    await stopWorkers();
    expect(mailedContactIds()).toEqual([id]);
  });

  it("marks failed at once, with the server's reason, a mail refused for good (5xx)", async () => {
    smtp.rejectWith({ code: 550, message: "5.1.1 Destinataire inconnu" });
    const refusedBefore = smtp.rejected;
    startWorker();
    await createContactRequest(visitor(25));
    await waitUntil("the mail marked failed", async () => (await outbox())[0]?.status === "failed");
    await stopWorkers();
    const [row] = await outbox();
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain("550");
    expect(row.lastError).toContain("Destinataire inconnu");
    expect(smtp.rejected - refusedBefore).toBe(1);
  });

  it("reports a wrong SMTP_URL: refused login (permanent), nobody listening (temporary)", async () => {
    expect(await verifySmtp(settings())).toEqual({ ok: true });
    const wrongPassword = smtp.url.replace(SMTP_PASSWORD, "mauvais-mot-de-passe");
    expect(wrongPassword).not.toBe(smtp.url);
    const refused = await verifySmtp({ ...settings(), smtpUrl: wrongPassword });
    expect(refused).toMatchObject({ ok: false, permanent: true });
    expect(refused.ok || refused.reason).toMatch(/535/);
    expect(refused.ok || refused.reason).not.toContain("mauvais-mot-de-passe");
    const closed = await closedPort();
    const nobody = await verifySmtp({ ...settings(), smtpUrl: `smtp://127.0.0.1:${closed}` });
    expect(nobody).toMatchObject({ ok: false, permanent: false });
  });

  it("sends again a mail whose sender died holding it, once its lease expires", async () => {
    const { id } = await createContactRequest(visitor(30));
    // A process claims the mail, then dies before sending (its lease is 1 s).
    expect((await claimDueMails(10, 1, database.db)).map((m) => m.contactRequestId)).toEqual([id]);
    expect(await claimDueMails(10, 1, database.db)).toEqual([]);
    startWorker();
    await smtp.waitForMails(1);
    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    await stopWorkers();
    expect(mailedContactIds()).toEqual([id]);
    expect((await outbox())[0].attempts).toBe(2);
  });

  it("a claim given back (the database failed before the mail left) is free at once, not after its lease", async () => {
    const { id } = await createContactRequest(visitor(31));
    const [claimed] = await claimDueMails(10, 300, database.db);
    expect(claimed.contactRequestId).toBe(id);
    expect(await claimDueMails(10, 300, database.db)).toEqual([]);
    await releaseMailClaim(claimed.id, database.db);
    expect((await claimDueMails(10, 300, database.db)).map((m) => m.id)).toEqual([claimed.id]);
    // A mail already recorded as sent is never given back.
    await database.db
      .update(mailOutbox)
      .set({ status: "sent" })
      .where(eq(mailOutbox.id, claimed.id));
    await releaseMailClaim(claimed.id, database.db);
    expect(await claimDueMails(10, 300, database.db)).toEqual([]);
  });

  it("marks failed a mail unsent after 3 days; the dashboard's retry sends it", async () => {
    const { id } = await createContactRequest(visitor(40));
    await database.db.execute(
      sql`update mail_outbox set created_at = now() - interval '73 hours', last_error = 'ECONNECTION : refusé'`,
    );
    startWorker();
    await waitUntil("the mail marked failed", async () => (await outbox())[0]?.status === "failed");
    const [failed] = await outbox();
    expect(failed.lastError).toBe(
      "Non envoyé 3 jours après la demande ; dernière erreur : ECONNECTION : refusé",
    );
    const overview = await mailOutboxOverview(database.db);
    expect([overview.pending, overview.failed]).toEqual([0, 1]);
    expect(overview.troubled).toMatchObject([
      { id: failed.id, status: "failed", contactRequestId: id, contactName: "Visiteur 40" },
    ]);
    expect(smtp.mails).toEqual([]);

    expect(await retryFailedMail(failed.id, database.db)).toBe(true);
    // The retry is recorded; the creation date (the personal-data export's) is kept.
    const [retried] = await outbox();
    expect(retried.createdAt).toEqual(failed.createdAt);
    expect(retried.retries).toBe(1);
    expect(retried.retriedAt).toBeInstanceOf(Date);
    // Only a failed mail can be retried (twice, or a sent one, is refused).
    expect(await retryFailedMail(failed.id, database.db)).toBe(false);
    await smtp.waitForMails(1);
    await waitUntil("the mail marked sent", async () => (await outbox())[0]?.status === "sent");
    await stopWorkers();
    expect(mailedContactIds()).toEqual([id]);
    expect(await retryFailedMail(failed.id, database.db)).toBe(false);
    expect(await retryFailedMail(2_147_483_647, database.db)).toBe(false);
  });

  it("a request and its mail are stored together or not at all", async () => {
    const before = (await database.db.select().from(contactRequests)).length;
    // A name of NUL cannot be stored: the whole transaction fails, no orphan mail either.
    await expect(createContactRequest({ ...visitor(50), name: "\u0000" })).rejects.toThrow();
    expect((await database.db.select().from(contactRequests)).length).toBe(before);
    expect(await outbox()).toEqual([]);
  });

  it("two workers side by side send each mail exactly once", async () => {
    // On PostgreSQL, two connections pools like two instances; on PGlite, two workers of one process.
    const second = database.databaseUrl ? await openPostgres(database.databaseUrl) : database;
    try {
      const ids = [];
      for (let n = 100; n < 130; n++) ids.push((await createContactRequest(visitor(n))).id);
      startWorker();
      startWorker(second);
      await smtp.waitForMails(30);
      await waitUntil("every mail marked sent", async () =>
        (await outbox()).every((m) => m.status === "sent"),
      );
      await stopWorkers();
      expect(mailedContactIds()).toEqual(ids.sort((a, b) => a - b));
      expect((await outbox()).every((m) => m.attempts === 1)).toBe(true);
    } finally {
      if (second !== database) await second.close();
    }
  });
});
