import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "../../../app/platform/db.server";
import { sendQuote } from "../../../app/features/quotes/quote-sending.server";
import {
  contactRequests,
  contactStatusChanges,
  mailOutbox,
  offers,
  passwordResets,
  quotes,
  sessions,
  signedDocuments,
  users,
} from "../../../app/platform/schema.server";
import { hashSessionToken } from "../../../app/features/accounts/sessions.server";
import { drawRequestLink } from "../../../app/features/buyer-request/request-link.server";
import type { AdminUser } from "../../../app/features/accounts/users.server";
import { fingerprint as fingerprintTables, readTables } from "../../support/fingerprint";
import { send, type Answer } from "../harness/http";
import { XSS_PAYLOADS, type ContactRow, type HostileCase, type Vars } from "./cases";

export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** Every table a request could write to, except the rate-limit counters (snapshot's keys). */
const SNAPSHOT_TABLES = {
  offers,
  contactRequests,
  users,
  sessions,
  mailOutbox,
  passwordResets,
  quotes,
  contactStatusChanges,
  signedDocuments,
};

/**
 * The rows of every SNAPSHOT_TABLES table. Without sessions' last_seen_at: any signed-in request
 * may slide it (about once a minute), hostile or not.
 */
export function snapshot(db: Database) {
  return readTables(db, SNAPSHOT_TABLES, [sessions.lastSeenAt]);
}

/**
 * What snapshot() reads (the same tables and columns) as one digest per table: equal exactly when
 * snapshot() would read equal rows. Fetching every row twice per case was most of this suite's time.
 */
export function fingerprint(db: Database): Promise<Record<string, string>> {
  return fingerprintTables(db, Object.values(SNAPSHOT_TABLES), [sessions.lastSeenAt]);
}

export async function loadVars(db: Database): Promise<Vars> {
  const [active] = await db
    .select()
    .from(offers)
    .where(eq(offers.isActive, true))
    .orderBy(asc(offers.id))
    .limit(1);
  const [inactive] = await db
    .select()
    .from(offers)
    .where(eq(offers.isActive, false))
    .orderBy(asc(offers.id))
    .limit(1);
  if (!active || !inactive) throw new Error("the demo data needs an active and an inactive offer");
  const fixture = (slug: string) => ({
    slug,
    title: slug,
    reference: slug.toUpperCase(),
    cpu: "Intel Xeon",
    ram: "32 Go",
    storage: "1 To",
    price: "10.00",
  });
  const [editable, deletable] = await db
    .insert(offers)
    .values([fixture("fixture-modifiable"), fixture("fixture-supprimable")])
    .returning({ id: offers.id });
  const [contact] = await db
    .insert(contactRequests)
    .values({
      name: "Demande existante",
      email: "existante@example.fr",
      message: "Bonjour",
      offerId: deletable.id,
    })
    .returning({ id: contactRequests.id });
  // Issue 29: a request to send a quote for, one that names no offer, and a quote already sent
  // whose link's token is known (the mail that would draw it never leaves: no mail worker here).
  const [quoteContact, noOfferContact, quoted] = await db
    .insert(contactRequests)
    .values([
      {
        name: "Acheteur devis",
        email: "devis@example.fr",
        message: "Un devis",
        offerId: active.id,
      },
      { name: "Sans offre", email: "sans-offre@example.fr", message: "Bonjour" },
      { name: "Devis envoyé", email: "envoye@example.fr", message: "Devis", offerId: active.id },
    ])
    .returning({ id: contactRequests.id });
  // No administrator exists yet: the sender is left out (sent_by_id is nullable).
  const nobody = { id: null, email: "hostile@example.fr", role: "admin" } as unknown as AdminUser;
  const sent = await sendQuote(quoted.id, { validityDays: 30, discounts: [] }, nobody, db);
  if (sent.kind !== "sent") throw new Error("the hostile quote was not sent");
  const quoteToken = randomBytes(32).toString("base64url");
  await db
    .update(quotes)
    .set({ tokenHash: hashSessionToken(quoteToken) })
    .where(eq(quotes.number, sent.number));
  // Issue 42: `Ma demande`'s link of the existing request.
  const requestToken = (await drawRequestLink(contact.id, db))!;
  return {
    requestToken,
    quoteContactId: quoteContact.id,
    noOfferContactId: noOfferContact.id,
    quoteToken,
    activeOfferId: active.id,
    inactiveOfferId: inactive.id,
    activeOfferSlug: active.slug,
    inactiveOfferSlug: inactive.slug,
    contactId: contact.id,
    editableOfferId: editable.id,
    deletableOfferId: deletable.id,
  };
}

/** Text of an HTML answer with the entities React writes decoded, for message checks. */
export function decodeHtml(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&amp;/g, "&");
}

let ipCounter = 0;
/** A new client address per request (TRUST_PROXY=loopback), so that the contact rate limit stays out of the way. */
export function nextClientIp(): string {
  ipCounter++;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export type RunOptions = {
  baseUrl: string;
  db: Database;
  vars: Vars;
  /** Headers that sign the request in as an administrator (Cookie, Origin). */
  adminHeaders?: [string, string][];
};

/**
 * Sends one case and checks the contract: never a 5xx, the expected status, the French message,
 * no unescaped payload or stack trace in the answer, and in the database either exactly the one
 * row the case stores or no change at all.
 */
export async function runCase(c: HostileCase, options: RunOptions): Promise<Answer> {
  const { baseUrl, db, vars } = options;
  const resolve = <T>(value: T | ((v: Vars) => T)): T =>
    typeof value === "function" ? (value as (v: Vars) => T)(vars) : value;

  const stored = c.expect.stored === undefined ? undefined : resolve(c.expect.stored);
  // A case that must change nothing compares fingerprints; the others read the rows they check.
  const expectsNoChange = !c.expect.change && !stored;
  const before = expectsNoChange ? await fingerprint(db) : await snapshot(db);
  const headers: [string, string][] = [["X-Forwarded-For", nextClientIp()]];
  if (c.contentType) headers.push(["Content-Type", c.contentType]);
  if (c.as === "admin") {
    if (!options.adminHeaders) throw new Error(`${c.name}: no administrator session`);
    headers.push(...options.adminHeaders);
  }
  headers.push(...(c.headers ?? []));
  const answer = await send(baseUrl, {
    method: c.method ?? "GET",
    path: resolve(c.path),
    headers,
    body: c.body === undefined ? undefined : resolve(c.body),
    chunked: c.chunked,
  });

  const statuses = Array.isArray(c.expect.status) ? c.expect.status : [c.expect.status];
  expect(answer.status, `status of '${c.name}'`).toBeLessThan(500);
  expect(statuses, `status of '${c.name}' (got ${answer.status})`).toContain(answer.status);
  const text = decodeHtml(answer.text);
  if (c.expect.message !== undefined) {
    if (typeof c.expect.message === "string") expect(text).toContain(c.expect.message);
    else expect(text).toMatch(c.expect.message);
  }
  if (c.expect.location) expect(answer.headers.location ?? "").toMatch(c.expect.location);
  for (const payload of XSS_PAYLOADS) expect(answer.text).not.toContain(payload);
  expect(answer.text, "no stack trace").not.toMatch(/\n\s+at \S+ \(.*:\d+:\d+\)/);

  if (expectsNoChange) {
    expect(await fingerprint(db), `no change in the database for '${c.name}'`).toEqual(before);
    return answer;
  }
  const full = before as Snapshot;
  const after = await snapshot(db);
  if (c.expect.change) {
    c.expect.change(full, after, vars);
  } else if (stored) {
    const known = new Set(full.contactRequests.map((r) => r.id));
    const added = after.contactRequests.filter((r) => !known.has(r.id));
    expect(added, `one new contact request for '${c.name}'`).toHaveLength(1);
    const row = added[0];
    const actual: ContactRow = {
      name: row.name,
      email: row.email,
      phone: row.phone,
      message: row.message,
      offerId: row.offerId,
      status: row.status,
    };
    expect(actual).toEqual(stored);
    expect(row.suspectedSpam).toBe(false);
    // Its notification is queued with it, and nothing else changed.
    const knownMails = new Set(full.mailOutbox.map((m) => m.id));
    const mails = after.mailOutbox.filter((m) => !knownMails.has(m.id));
    expect(mails.map((m) => [m.contactRequestId, m.kind, m.status])).toEqual([
      [row.id, "contact_notification", "pending"],
    ]);
    expect({
      ...after,
      contactRequests: after.contactRequests.filter((r) => known.has(r.id)),
      mailOutbox: after.mailOutbox.filter((m) => knownMails.has(m.id)),
    }).toEqual(full);
  }
  return answer;
}
