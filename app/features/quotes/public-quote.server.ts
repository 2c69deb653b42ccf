import { createHash } from "node:crypto";
import { setTimeout as pause } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import { configurationKey } from "~/lib/configuration-query-schema";
import { parisDay } from "~/lib/dates";
import { createSemaphore, QueueFullError, type Semaphore } from "~/lib/semaphore";
import { REFUSAL_PAUSE_MS, TokenBuckets, type Take } from "~/lib/token-bucket";
import { getCatalogueVersion } from "~/features/offers/catalogue.server";
import { clientSubject } from "~/platform/client-address.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { quotePdf } from "./quote-pdf.server";
import { offerQuote } from "./quotes.server";

// The offer page's quote PDF (issue 28): one client must not be able to take the site down with
// it. A PDF is laid out on the event loop (about 50-150 ms), so:
// - the same question gets the same bytes all day: kept in memory by (offer, configuration, day
//   in Paris), bounded, emptied when the catalogue version changes (offers, lease scale,
//   datacenters), with a strong ETag;
// - a client renders at most QUOTE_PDF_BURST at once then QUOTE_PDF_RATE_PER_MINUTE (in memory,
//   per instance); a client over it is refused before any database work, even for a kept PDF;
// - at most QUOTE_PDF_CONCURRENCY renders at once, QUOTE_PDF_QUEUE waiting, a 503 beyond.

/** The wait a 503 asks for when every turn is taken. */
export const QUOTE_BUSY_RETRY_SECONDS = 5;
/** Bytes of PDFs kept per instance (about 25 KB each). */
const KEPT_BYTES = 16 * 1024 * 1024;

type Kept = { pdf: Buffer; etag: string; fileName: string; day: string };

export type PublicQuotePdf =
  | { kind: "pdf"; pdf: Buffer; etag: string; fileName: string; cached: boolean }
  | { kind: "missing" }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "busy"; retryAfterSeconds: number };

type Rendered = Exclude<PublicQuotePdf, { kind: "rate-limited" }>;

type State = {
  clients: TokenBuckets;
  turns: Semaphore;
  kept: LRUCache<string, Kept>;
  version?: string;
  rendering: Map<string, Promise<Rendered>>;
};

let state: State | undefined;

function current(): State {
  const e = env();
  state ??= {
    clients: new TokenBuckets({ perMinute: e.QUOTE_PDF_RATE_PER_MINUTE, burst: e.QUOTE_PDF_BURST }),
    turns: createSemaphore({
      concurrency: e.QUOTE_PDF_CONCURRENCY,
      maxQueued: e.QUOTE_PDF_QUEUE,
      handOff: (next) => setImmediate(next),
    }),
    kept: new LRUCache<string, Kept>({
      maxSize: KEPT_BYTES,
      sizeCalculation: (kept) => kept.pdf.length,
      // A day's quotes are not asked for the next day.
      ttl: 24 * 60 * 60 * 1000,
    }),
    rendering: new Map(),
  };
  return state;
}

async function refused(
  take: Exclude<Take, { allowed: true }>,
  client: string,
): Promise<PublicQuotePdf> {
  if (take.first) log.warn("quote PDF limit reached", { client });
  await pause(REFUSAL_PAUSE_MS);
  return { kind: "rate-limited", retryAfterSeconds: take.retryAfterSeconds };
}

/**
 * The quote PDF of an active offer as configured by `params` (already parsed), for the client at
 * `clientIp`: kept bytes, freshly rendered ones, or why not. Database errors are thrown (the
 * route's withDatabase answers 503).
 */
export async function publicQuotePdf(
  slug: string,
  params: URLSearchParams,
  clientIp: string,
  database: Database = db(),
  now = new Date(),
): Promise<PublicQuotePdf> {
  const s = current();
  const client = clientSubject(clientIp);
  if (!s.clients.peek(client)) {
    // A refused take spends nothing: it only says how long to wait.
    const take = s.clients.take(client);
    if (!take.allowed) return refused(take, client);
  }

  const { version } = await getCatalogueVersion(database);
  if (version !== s.version) {
    s.kept.clear();
    s.version = version;
  }
  const day = parisDay(now);
  const key = `${slug}?${configurationKey(params)}`;
  const kept = s.kept.get(key);
  if (kept?.day === day) return { kind: "pdf", ...kept, cached: true };

  // One render per question: whoever asks meanwhile waits for it, without spending a token.
  const renderKey = `${version} ${day} ${key}`;
  const pending = s.rendering.get(renderKey);
  if (pending) {
    const rendered = await pending;
    return rendered.kind === "pdf" ? { ...rendered, cached: true } : rendered;
  }
  const take = s.clients.take(client);
  if (!take.allowed) return refused(take, client);

  const job = s.turns
    .run(async (): Promise<Rendered> => {
      const quote = await offerQuote(slug, params, database, now);
      if (!quote) return { kind: "missing" };
      // The day's first instant (UTC), still that day in Paris: the same bytes all day.
      const pdf = await quotePdf(quote, new Date(`${day}T00:00:00Z`));
      const etag = `"${createHash("sha256").update(pdf).digest("base64url").slice(0, 27)}"`;
      const made: Kept = { pdf, etag, fileName: quote.fileName, day };
      // The catalogue may have changed while it rendered: kept only if still current.
      if (s.version === version) s.kept.set(key, made);
      return { kind: "pdf", ...made, cached: false };
    })
    .catch((error: unknown): Rendered => {
      if (!(error instanceof QueueFullError)) throw error;
      log.warn("quote PDF queue full", { active: s.turns.active, waiting: s.turns.queued });
      return { kind: "busy", retryAfterSeconds: QUOTE_BUSY_RETRY_SECONDS };
    });
  s.rendering.set(renderKey, job);
  try {
    return await job;
  } finally {
    if (s.rendering.get(renderKey) === job) s.rendering.delete(renderKey);
  }
}

export type LimitedRender<T> =
  | { kind: "rendered"; value: T }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "busy"; retryAfterSeconds: number };

/**
 * Another public PDF rendered per request (a sent quote's, /devis/:token/pdf, issue 29) under the
 * offer quote's limits: a token of the same client's bucket, then a turn of the same semaphore
 * (QUOTE_PDF_*), so that one client cannot flood either address to take the event loop.
 */
export async function limitedQuoteRender<T>(
  clientIp: string,
  render: () => Promise<T>,
): Promise<LimitedRender<T>> {
  const s = current();
  const client = clientSubject(clientIp);
  const take = s.clients.take(client);
  if (!take.allowed) {
    const refusal = await refused(take, client);
    return refusal as Extract<PublicQuotePdf, { kind: "rate-limited" }>;
  }
  try {
    return { kind: "rendered", value: await s.turns.run(render) };
  } catch (error) {
    if (!(error instanceof QueueFullError)) throw error;
    log.warn("quote PDF queue full", { active: s.turns.active, waiting: s.turns.queued });
    return { kind: "busy", retryAfterSeconds: QUOTE_BUSY_RETRY_SECONDS };
  }
}
