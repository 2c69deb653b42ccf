import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { conversationOf, sendReply } from "../../app/features/conversation/conversation.server";
import {
  referenceOfReplyAddress,
  replyAddress,
} from "../../app/features/conversation/reply-address.server";
import { acknowledgementLimits } from "../../app/features/desk/contact-acknowledgement.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { MAIL_KINDS } from "../../app/features/mail/mail-outbox.server";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { sendQuote } from "../../app/features/quotes/quote-sending.server";
import * as requestPage from "../../app/routes/admin/contact-request";
import {
  auditJournal,
  contactRequests,
  mailOutbox,
  requestMessages,
} from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { startTestSmtpServer, testMailSettings, type TestSmtpServer } from "../support/smtp";

// Writing to the buyer from the request's page (issue 40): the message stored in the request's
// conversation and queued in one transaction, sent by the mail worker to a real SMTP server on
// loopback, threaded (Message-ID, In-Reply-To, References) and answering to the request's
// plus-address, which names it with a keyed tag nobody can forge.
vi.hoisted(() => {
  process.env.REPLY_MAILBOX = "ventes@example.fr";
  // Over plain HTTP: an administrator without a second factor may act (issue 28 asks it over HTTPS).
  process.env.SITE_URL = "http://www.example.fr";
  // The acknowledgement is queued when mail is configured (the worker below sends it).
  process.env.SMTP_URL = "smtp://127.0.0.1:25";
  process.env.NOTIFY_EMAIL = "ventes@example.fr";
});

const { database, signedInAdmin, sessionCookieFor } = useAdminSuite();
let smtp: TestSmtpServer;
let worker: MailWorker | undefined;

const settings = () => testMailSettings(smtp);

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});

describe(`conversation (${testDatabaseKind})`, () => {
  let requestId: number;
  let reference: string;
  let actor: { id: number; email: string; role: "admin" };
  let cookie: string;

  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
    smtp.mails.length = 0;
    const { admin } = await signedInAdmin();
    actor = { id: admin.id, email: admin.email, role: "admin" };
    cookie = await sessionCookieFor(admin.id);
    const [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "Xeon", reference: "DED-1", price: "100.00" }),
    ]);
    const request = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Un devis svp",
        offer: offerId,
      },
      database.db,
      { acknowledge: acknowledgementLimits() },
    );
    requestId = request.id;
    reference = request.reference;
  });

  const startWorker = () => {
    worker = startMailWorker(database, settings(), mailRenderers, { pollMs: 200 });
  };
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.envelope.to.includes(address));

  it("names the request in a plus-address nobody can forge, and reads it back", async () => {
    const address = await replyAddress("Ventes@Example.fr", reference, database.db);
    expect(address).toMatch(
      new RegExp(`^ventes\\+${reference.toLowerCase()}-[0-9a-f]{16}@example\\.fr$`),
    );
    expect(await referenceOfReplyAddress(address, "ventes@example.fr", database.db)).toBe(
      reference,
    );
    expect(
      await referenceOfReplyAddress(address.toUpperCase(), "ventes@example.fr", database.db),
    ).toBe(reference);
    // Another request's number with this tag, a changed tag, another mailbox: nothing.
    const other = address.replace(reference.toLowerCase(), "dem-2026-99999");
    expect(await referenceOfReplyAddress(other, "ventes@example.fr", database.db)).toBeNull();
    const forged = address.replace(
      /-([0-9a-f])([0-9a-f]{15})@/,
      (_, c: string, rest: string) => `-${c === "0" ? "1" : "0"}${rest}@`,
    );
    expect(await referenceOfReplyAddress(forged, "ventes@example.fr", database.db)).toBeNull();
    expect(await referenceOfReplyAddress(address, "autre@example.fr", database.db)).toBeNull();
    expect(
      await referenceOfReplyAddress("ventes@example.fr", "ventes@example.fr", database.db),
    ).toBeNull();
  });

  it("sends the message from the request's page, threaded after the acknowledgement", async () => {
    startWorker();
    // The acknowledgement is the first mail the buyer has: the message answers it.
    await smtp.waitForMails(2);
    const [ack] = mailsTo("jeanne@example.fr");
    expect(ack.parsed.messageId).toMatch(/^<contact-\d+\.mail-\d+@www\.example\.fr>$/);

    const posted = await call(
      requestPage.action,
      makeRequest(`/admin/contacts/${requestId}`, {
        cookie,
        form: {
          intent: "reply",
          subject: `Votre demande ${reference}`,
          body: "Bonjour,\n\nLe serveur est disponible dès lundi.",
        },
      }),
      undefined,
      { id: String(requestId) },
    );
    expect(posted.status).toBe(302);
    expect(posted.location).toBe(`/admin/contacts/${requestId}`);
    expect(posted.headers.get("set-cookie")).toContain("flash=replySent");
    const journal = await database.db.select().from(auditJournal);
    expect(journal.map((row) => row.action)).toContain("reply-sent");

    await smtp.waitForMails(3);
    const [first] = mailsTo("jeanne@example.fr").slice(1);
    expect(first.parsed.subject).toBe(`Votre demande ${reference}`);
    expect(first.parsed.text).toContain("Le serveur est disponible dès lundi.");
    expect(first.parsed.text).toContain(`Référence de votre demande : ${reference}`);
    expect(first.parsed.inReplyTo).toBe(ack.parsed.messageId);
    expect(first.parsed.references).toBe(ack.parsed.messageId);
    const replyTo = first.parsed.replyTo?.[0]?.address ?? "";
    expect(await referenceOfReplyAddress(replyTo, "ventes@example.fr", database.db)).toBe(
      reference,
    );
    expect(first.raw).not.toMatch(/^Auto-Submitted:/im);

    // A second message follows the first in the thread.
    const second = await sendReply(
      requestId,
      { subject: `Re : Votre demande ${reference}`, body: "Un rappel.", attachQuote: false },
      actor,
      database.db,
    );
    expect(second.kind).toBe("queued");
    await smtp.waitForMails(4);
    const [, , last] = mailsTo("jeanne@example.fr");
    expect(last.parsed.inReplyTo).toBe(first.parsed.messageId);
    expect(last.parsed.references).toBe(`${ack.parsed.messageId} ${first.parsed.messageId}`);

    // Recorded as sent once the SMTP server has it (a moment after it arrives).
    await expect
      .poll(async () =>
        (await conversationOf(requestId, database.db)).map((m) => [
          m.direction,
          m.authorEmail,
          m.mailStatus,
        ]),
      )
      .toEqual([
        ["outbound", actor.email, "sent"],
        ["outbound", actor.email, "sent"],
      ]);
    const [request] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, requestId));
    expect(request.firstAnsweredAt).not.toBeNull();
  });

  it("joins the sent quote as a PDF, and refuses to join one never sent", async () => {
    const none = await sendReply(
      requestId,
      { subject: "Votre devis", body: "Ci-joint.", attachQuote: true },
      actor,
      database.db,
    );
    expect(none).toEqual({ kind: "no-quote" });
    expect(await database.db.select().from(requestMessages)).toEqual([]);

    const sent = await sendQuote(
      requestId,
      { validityDays: 30, discounts: [] },
      actor,
      database.db,
    );
    if (sent.kind !== "sent") throw new Error(sent.kind);
    const queued = await sendReply(
      requestId,
      { subject: "Votre devis", body: "Ci-joint le devis.", attachQuote: true },
      actor,
      database.db,
    );
    expect(queued.kind).toBe("queued");
    startWorker();
    const deadline = Date.now() + 30_000;
    while (!smtp.mails.some((m) => m.parsed.subject === "Votre devis") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const mail = smtp.mails.find((m) => m.parsed.subject === "Votre devis")!;
    expect(mail.parsed.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      [`${sent.number}.pdf`, "application/pdf"],
    ]);
    const [message] = await conversationOf(requestId, database.db);
    expect(message.quoteNumber).toBe(sent.number);
  });

  it("refuses an empty message or a subject on two lines, keeping what was typed (400)", async () => {
    const before = await database.db.select().from(mailOutbox);
    for (const form of [
      { intent: "reply", subject: "Objet", body: "   " },
      { intent: "reply", subject: "Objet\r\nBcc: tous@example.com", body: "Bonjour" },
    ]) {
      const refused = await call(
        requestPage.action,
        makeRequest(`/admin/contacts/${requestId}`, { cookie, form }),
        undefined,
        { id: String(requestId) },
      );
      expect(refused.status, JSON.stringify(refused.data)).toBe(400);
      expect(refused.data).toMatchObject({
        intent: "reply",
        error: "Message non envoyé",
        values: { subject: form.subject, body: form.body },
      });
    }
    expect(await database.db.select().from(requestMessages)).toEqual([]);
    expect(await database.db.select().from(mailOutbox)).toEqual(before);
    expect(
      (await database.db.select().from(mailOutbox)).some((m) => m.kind === MAIL_KINDS.requestReply),
    ).toBe(false);
  });
});
