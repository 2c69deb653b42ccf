import { createHash } from "node:crypto";
import { eq, inArray, isNotNull, and, sql } from "drizzle-orm";
import PostalMime, { type Email } from "postal-mime";
import { contactReference } from "~/platform/contact-reference";
import type { Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import {
  contactRequests,
  mailOutbox,
  quotes,
  requestMessageAttachments,
  requestMessages,
} from "~/platform/schema.server";
import { MAIL_KINDS, mailQueue } from "~/features/mail/mail-outbox.server";
import { siteConfig } from "~/platform/site.server";
import { messageDomainOf } from "~/features/mail/mail-settings.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import { referenceOfReplyAddress } from "./reply-address.server";
import { refusalLines, sortAttachments } from "./attachments.server";
import { sanitizedHtml, textOfHtml } from "./message-html.server";

// A message read from the mailbox (issue 40): classified (the buyer's words, an automatic answer,
// a bounce), attached to its request (by the request's tagged address, else by the thread), and
// stored once whatever the number of instances reading the same mailbox.

/** The longest body kept: a quoted thread beyond it is cut. */
const BODY_MAX = 50_000;

type Kind = "message" | "auto_reply" | "bounce";

const header = (email: Email, name: string) =>
  email.headers.filter((h) => h.key === name).map((h) => h.value.trim());

/** An out-of-office or any answer a program wrote (RFC 3834, and what common servers add). */
function kindOf(email: Email): Kind {
  const type = header(email, "content-type").join(" ").toLowerCase();
  const from = email.from?.address?.toLowerCase() ?? "";
  if (
    (type.includes("multipart/report") && type.includes("delivery-status")) ||
    /^(mailer-daemon|postmaster)@/.test(from)
  ) {
    return "bounce";
  }
  const auto = header(email, "auto-submitted").some((value) => !/^no\b/i.test(value));
  const precedence = header(email, "precedence").some((v) => /auto_reply|bulk|junk/i.test(v));
  const marked = ["x-autoreply", "x-autorespond", "x-auto-response"].some(
    (name) => header(email, name).length > 0,
  );
  const subject = /^(réponse automatique|automatic reply|auto[- ]?reply|out of office|absence)/i;
  if (auto || precedence || marked || subject.test(email.subject ?? "")) return "auto_reply";
  return "message";
}

/** The request a reference names (DEM-YYYY-NNNNN), when it still exists under that reference. */
export async function requestByReference(reference: string, database: Database) {
  const id = Number(reference.split("-")[2]);
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await database
    .select({ id: contactRequests.id, createdAt: contactRequests.createdAt })
    .from(contactRequests)
    .where(eq(contactRequests.id, id));
  return row && contactReference(row.id, row.createdAt) === reference ? row.id : undefined;
}

/** The Message-IDs a message answers (In-Reply-To, References), or names anywhere (a bounce). */
function threadIds(email: Email, raw: string, kind: Kind): string[] {
  const ids: string[] = [
    ...(`${email.inReplyTo ?? ""} ${email.references ?? ""}`.match(/<[^<>\s]+>/g) ?? []),
  ];
  // A bounce quotes the message it returns (its headers, or all of it).
  if (kind === "bounce") ids.push(...(raw.match(/<[^<>\s@]+@[^<>\s]+>/g) ?? []));
  return [...new Set(ids)];
}

/**
 * The request a message belongs to: the tagged address it was sent to (REPLY_MAILBOX), else the
 * thread it answers (a message of the conversation, the acknowledgement, a quote's mail).
 */
async function requestOf(email: Email, raw: string, kind: Kind, database: Database) {
  const mailbox = env().REPLY_MAILBOX;
  if (mailbox) {
    const addresses = [
      ...(email.to ?? []),
      ...(email.cc ?? []),
      ...header(email, "delivered-to").map((address) => ({ address })),
      ...header(email, "x-original-to").map((address) => ({ address })),
    ].flatMap((a) => ("address" in a && a.address ? [a.address] : []));
    for (const address of addresses) {
      const reference = await referenceOfReplyAddress(address, mailbox, database);
      const id = reference ? await requestByReference(reference, database) : undefined;
      if (id) return id;
    }
  }
  const ids = threadIds(email, raw, kind);
  if (ids.length === 0) return undefined;
  const [known] = await database
    .select({ id: requestMessages.contactRequestId })
    .from(requestMessages)
    .where(
      and(inArray(requestMessages.messageId, ids), isNotNull(requestMessages.contactRequestId)),
    )
    .limit(1);
  if (known?.id) return known.id;
  // The site's own mails (mail.server.ts, quote-mail.server.ts): `<contact-ID.mail-N@domain>`.
  const domain = messageDomainOf(siteConfig().baseUrl).replace(/\./g, "\\.");
  for (const id of ids) {
    const contact = new RegExp(`^<contact-(\\d+)\\.mail-\\d+@${domain}>$`).exec(id);
    if (contact) {
      const [row] = await database
        .select({ id: contactRequests.id })
        .from(contactRequests)
        .where(eq(contactRequests.id, Number(contact[1])));
      if (row) return row.id;
    }
    const quote = new RegExp(`^<quote-(\\d+)\\.mail-\\d+@${domain}>$`).exec(id);
    if (quote) {
      const [row] = await database
        .select({ id: quotes.contactRequestId })
        .from(quotes)
        .where(eq(quotes.id, Number(quote[1])));
      if (row) return row.id;
    }
  }
  return undefined;
}

/**
 * The message as text: its text part, else its HTML part's text; then a line for each attachment
 * not kept, so that the team knows the buyer sent it.
 */
function bodyOf(email: Email, refused: string): string {
  const text = email.text ?? textOfHtml(email.html ?? "");
  const body = text.replace(/\r\n/g, "\n").trim().slice(0, BODY_MAX);
  return [body, refused].filter(Boolean).join("\n\n");
}

/**
 * What an incoming message attached to a request changes there: a bounce marks its address
 * failing; the buyer's own message is activity (and the address works) and emits request.replied.
 */
export async function followIncoming(
  kind: Kind,
  contactRequestId: number,
  requestMessageId: number,
  tx: Database,
) {
  if (kind === "bounce") {
    await tx
      .update(contactRequests)
      .set({ emailFailedAt: sql`now()` })
      .where(eq(contactRequests.id, contactRequestId));
  } else if (kind === "message") {
    await tx
      .update(contactRequests)
      .set({ updatedAt: sql`now()`, emailFailedAt: null })
      .where(eq(contactRequests.id, contactRequestId));
    await enqueueWebhookEvent("request.replied", contactRequestId, tx);
    // The owner (or the team) is told, once: the message is stored once.
    await tx.insert(mailOutbox).values({
      contactRequestId,
      kind: MAIL_KINDS.requestReplied,
      requestMessageId,
    });
    await mailQueue.notify(tx);
  }
}

/** What an incoming message may bring (INCOMING_ATTACHMENT_MAX_BYTES unless told). */
export type IncomingLimits = { attachmentMaxBytes: number };

export type StoredIncoming = {
  stored: boolean;
  kind: Kind;
  contactRequestId: number | null;
};

/**
 * Stores one message read from the mailbox at `mailboxKey`, once: a second read (another instance,
 * a restart) finds its Message-ID or its place taken and stores nothing. The buyer's own message
 * counts as the request's activity and emits `request.replied`; a bounce marks the address failing.
 */
export async function storeIncoming(
  raw: Buffer | string,
  mailboxKey: string,
  database: Database,
  limits: IncomingLimits = { attachmentMaxBytes: env().INCOMING_ATTACHMENT_MAX_BYTES },
): Promise<StoredIncoming> {
  const source = typeof raw === "string" ? raw : raw.toString("latin1");
  const email = await PostalMime.parse(raw);
  const kind = kindOf(email);
  // A bounce's parts are the report and the returned message, not files anyone sent.
  const files =
    kind === "bounce"
      ? { kept: [], refused: [] }
      : await sortAttachments(email.attachments, limits.attachmentMaxBytes);
  const contactRequestId = (await requestOf(email, source, kind, database)) ?? null;
  const messageId =
    email.messageId?.trim() ||
    `<sha256-${createHash("sha256").update(source).digest("hex")}@mailbox.invalid>`;
  const body = bodyOf(email, refusalLines(files.refused));
  const html = sanitizedHtml(email.html);
  return database.transaction(async (tx) => {
    const inserted = await tx
      .insert(requestMessages)
      .values({
        contactRequestId,
        direction: "inbound",
        kind,
        mailboxKey,
        authorEmail: (email.from?.address ?? "").toLowerCase().slice(0, 320),
        subject: (email.subject ?? "").slice(0, 998),
        body,
        html,
        messageId: messageId.slice(0, 998),
        inReplyTo: email.inReplyTo?.trim().slice(0, 998) ?? null,
        references: (email.references?.match(/<[^<>\s]+>/g) ?? []).slice(-20),
        createdAt:
          email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date) : undefined,
      })
      .onConflictDoNothing()
      .returning({ id: requestMessages.id });
    // Stored with the message, once: a message already there brings nothing.
    // One statement per file: ten files at the limit make no 100 MB statement.
    for (const file of inserted.length > 0 ? files.kept : []) {
      await tx.insert(requestMessageAttachments).values({ ...file, messageId: inserted[0].id });
    }
    if (inserted.length === 0 || contactRequestId === null) {
      return { stored: inserted.length > 0, kind, contactRequestId };
    }
    await followIncoming(kind, contactRequestId, inserted[0].id, tx);
    return { stored: true, kind, contactRequestId };
  });
}
