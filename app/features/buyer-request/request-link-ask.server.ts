// `Retrouver ma demande` (issue 42): a new link asked for by the reference and the address. The
// answer never says whether a request exists: both cases take the same path (a per-client limit,
// then one counted write in one transaction, the mail queued only on a match) and end on the same
// page with the same status.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { contactReference, parseContactReference } from "~/platform/contact-reference";
import { mailboxKey } from "~/features/mail/mailbox";
import { clientSubject } from "~/platform/client-address.server";
import { db, type Database } from "~/platform/db.server";
import { hitRateLimit, takeAttempt } from "~/platform/rate-limit.server";
import { contactRequests, mailOutbox } from "~/platform/schema.server";
import { MAIL_KINDS, mailQueue } from "~/features/mail/mail-outbox.server";

/** Asks per client address in the window: enough for typos, too few to try references. */
export const LINK_ASKS_PER_CLIENT = 5;
export const LINK_ASK_WINDOW_MS = 15 * 60 * 1000;
/** At most one link mailed per request in this window. */
const LINK_MAIL_WINDOW_MS = 10 * 60 * 1000;

export type LinkAsk = { kind: "answered" } | { kind: "rate-limited"; retryAfterSeconds: number };

const digest = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The request that reference and address name together (not spam), or undefined. */
async function matching(reference: string, email: string, tx: Database) {
  const id = Number(reference.split("-")[2]);
  if (!parseContactReference(reference) || !Number.isSafeInteger(id)) return undefined;
  const [row] = await tx
    .select({
      id: contactRequests.id,
      email: contactRequests.email,
      createdAt: contactRequests.createdAt,
      spam: contactRequests.suspectedSpam,
    })
    .from(contactRequests)
    .where(eq(contactRequests.id, id));
  return row &&
    !row.spam &&
    contactReference(row.id, row.createdAt) === reference &&
    mailboxKey(row.email) === mailboxKey(email)
    ? row.id
    : undefined;
}

/**
 * Mails a new link to the request's address when reference and address match, at most once per
 * request in 10 minutes; answers `answered` whether they match or not.
 */
export async function askForLink(
  input: { reference: string; email: string },
  client: { ip: string },
  database: Database = db(),
): Promise<LinkAsk> {
  const refused = await takeAttempt(
    [
      {
        key: `request-link:${clientSubject(client.ip)}`,
        limit: LINK_ASKS_PER_CLIENT,
        windowMs: LINK_ASK_WINDOW_MS,
      },
    ],
    database,
  );
  if (refused) return { kind: "rate-limited", ...refused };
  const reference = input.reference.trim().toUpperCase();
  await database.transaction(async (tx) => {
    const id = await matching(reference, input.email, tx);
    // The same counted write either way: a match's per-request window, else the pair's own.
    const key =
      id === undefined
        ? `request-link-none:${digest(`${reference} ${mailboxKey(input.email)}`)}`
        : `request-link-mail:${id}`;
    const window = await hitRateLimit(key, 1, LINK_MAIL_WINDOW_MS, tx);
    if (id !== undefined && window.allowed) {
      await tx.insert(mailOutbox).values({ contactRequestId: id, kind: MAIL_KINDS.requestLink });
    }
    // Announced either way: the two answers cost the same statements but the one insert.
    await mailQueue.notify(tx);
  });
  return { kind: "answered" };
}
