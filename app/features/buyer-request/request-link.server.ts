// `Ma demande` (issue 42): the buyer's secret link to their request. 256 random bits, only their
// SHA-256 stored (the database never holds a usable link), drawn as the mail that carries it
// leaves; a new link replaces the previous one. It goes with its request: the retention purge and
// the erasure delete the row, and the link with it.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { db, type Database } from "~/platform/db.server";
import { contactRequests } from "~/platform/schema.server";

/** The page of a link (its token is cut out of every log line: app/platform/log.server.ts). */
export const requestLinkPath = (token: string) => `/ma-demande/${token}`;

/** 32 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/** Draws the request's link: its token, to put in the mail; undefined when the request is gone. */
export async function drawRequestLink(
  contactRequestId: number,
  database: Database = db(),
): Promise<string | undefined> {
  const token = randomBytes(32).toString("base64url");
  const [row] = await database
    .update(contactRequests)
    .set({ followTokenHash: hashOf(token).toString("hex") })
    .where(eq(contactRequests.id, contactRequestId))
    .returning({ id: contactRequests.id });
  return row ? token : undefined;
}

/**
 * The request a link opens, or undefined: looked up by the token's hash (indexed), and the stored
 * hash compared again in constant time (node:crypto's timingSafeEqual).
 */
export async function requestOfLink(
  token: string,
  database: Database = db(),
): Promise<number | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const hash = hashOf(token);
  const [row] = await database
    .select({ id: contactRequests.id, stored: contactRequests.followTokenHash })
    .from(contactRequests)
    .where(eq(contactRequests.followTokenHash, hash.toString("hex")));
  if (!row?.stored) return undefined;
  const stored = Buffer.from(row.stored, "hex");
  return stored.length === hash.length && timingSafeEqual(stored, hash) ? row.id : undefined;
}
