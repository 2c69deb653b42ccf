import { createHmac, timingSafeEqual } from "node:crypto";
import type { Database } from "~/platform/db.server";
import { siteKey } from "~/platform/site-key.server";

// The address a buyer's reply reaches (issue 40): the mailbox's plus-address naming the request,
// `ventes+dem-2026-00012-<tag>@example.fr`. The tag is an HMAC-SHA256 of the reference (node:crypto,
// the site key's own use), its first 64 bits in hex: nobody can write the address of
// another request, or guess one, and a reply read from the mailbox is attached only when its
// tag is right. Lower case throughout: mail systems may fold the local part.

const KEY_USE = { name: "reply_address_key", info: "serveurpro reply address v1" };
const PLUS_ADDRESS = /^([a-z0-9._-]+)\+(dem-\d{4}-\d{5,10})-([0-9a-f]{16})@([a-z0-9.-]+)$/;

async function tagOf(reference: string, database: Database): Promise<string> {
  const key = await siteKey(KEY_USE, database);
  const mac = createHmac("sha256", key).update(`reply:${reference.toLowerCase()}`).digest();
  return mac.subarray(0, 8).toString("hex");
}

/** The plus-address of `mailbox` that names the request `reference` (DEM-YYYY-NNNNN). */
export async function replyAddress(
  mailbox: string,
  reference: string,
  database: Database,
): Promise<string> {
  const [local, domain] = mailbox.toLowerCase().split("@");
  return `${local}+${reference.toLowerCase()}-${await tagOf(reference, database)}@${domain}`;
}

/**
 * The request reference an address names, when it is a plus-address of `mailbox` with the right
 * tag; null for any other address, a wrong mailbox or a forged tag.
 */
export async function referenceOfReplyAddress(
  address: string,
  mailbox: string,
  database: Database,
): Promise<string | null> {
  const match = PLUS_ADDRESS.exec(address.trim().toLowerCase());
  if (!match) return null;
  const [, local, reference, tag, domain] = match;
  if (`${local}@${domain}` !== mailbox.toLowerCase()) return null;
  const expected = Buffer.from(await tagOf(reference, database));
  if (!timingSafeEqual(expected, Buffer.from(tag))) return null;
  return reference.toUpperCase();
}
