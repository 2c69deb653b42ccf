import { createHash } from "node:crypto";
import { setTimeout as pause } from "node:timers/promises";
import { configurationKey } from "./configuration-query-schema";
import { parisDay } from "~/lib/dates";
import { memo, type Memo } from "~/lib/memo";
import { createSemaphore, QueueFullError, type Semaphore } from "~/lib/semaphore";
import { REFUSAL_PAUSE_MS, TokenBuckets, type Take } from "~/platform/rate-limit.server";
import { getCatalogueVersion } from "~/features/offers/catalogue.server";
import { clientSubject } from "~/platform/client-address.server";
import { db, type Database } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { quotePdf } from "./quote-pdf.server";
import { offerQuote } from "./quotes.server";

// The offer page's quote PDF (issue 28): one client must not be able to take the site down with
// it. A PDF is laid out on the event loop (about 50-150 ms), so:
// - the same question gets the same bytes all day: kept in memory (the one memo, ~/lib/memo) by
//   (catalogue version, day in Paris, offer, configuration), bounded in bytes, so that a change of
//   offers, lease scale or datacenters asks again; with a strong ETag;
// - a client renders at most QUOTE_PDF_BURST at once then QUOTE_PDF_RATE_PER_MINUTE (in memory,
//   per instance); a client over it is refused before any database work, even for a kept PDF;
// - at most QUOTE_PDF_CONCURRENCY renders at once, QUOTE_PDF_QUEUE waiting, a 503 beyond.

/** The wait a 503 asks for when every turn is taken. */
export const QUOTE_BUSY_RETRY_SECONDS = 5;
/** Bytes of PDFs kept per instance (about 25 KB each). */
const KEPT_BYTES = 16 * 1024 * 1024;

type Kept = { pdf: Buffer; etag: string; fileName: string };

export type PublicQuotePdf =
  | { kind: "pdf"; pdf: Buffer; etag: string; fileName: string; cached: boolean }
  | { kind: "missing" }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "busy"; retryAfterSeconds: number };

type Rendered = { kind: "pdf"; kept: Kept } | { kind: "missing" };

/** One render per question, kept for the day: whoever asks meanwhile shares the pending one. */
type Renders = Memo<
  [version: string, day: string, slug: string, configuration: string],
  Promise<Rendered>
>;

type State = {
  clients: TokenBuckets;
  turns: Semaphore;
  /** Per database (tests and scripts may pass their own): its renders. */
  renders: WeakMap<Database, Renders>;
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
    renders: new WeakMap(),
  };
  return state;
}

/** The renders of `database`: a busy queue is thrown (not kept), a missing offer is kept. */
function rendersOf(s: State, database: Database): Renders {
  let renders = s.renders.get(database);
  if (renders) return renders;
  renders = memo(
    (_version: string, day: string, slug: string, configuration: string) =>
      s.turns.run(async (): Promise<Rendered> => {
        // The day's first instant (UTC), still that day in Paris: the same bytes all day.
        const issued = new Date(`${day}T00:00:00Z`);
        const quote = await offerQuote(slug, new URLSearchParams(configuration), database, issued);
        if (!quote) return { kind: "missing" };
        const pdf = await quotePdf(quote, issued);
        const etag = `"${createHash("sha256").update(pdf).digest("base64url").slice(0, 27)}"`;
        return { kind: "pdf", kept: { pdf, etag, fileName: quote.fileName } };
      }),
    {
      max: 10_000,
      maxSize: KEPT_BYTES,
      sizeOf: (rendered) => (rendered.kind === "pdf" ? rendered.kept.pdf.length : 1),
      // A day's quotes are not asked for the next day.
      ttlMs: 24 * 60 * 60 * 1000,
    },
  );
  s.renders.set(database, renders);
  return renders;
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
  const question = [version, parisDay(now), slug, configurationKey(params)] as const;
  const renders = rendersOf(s, database);
  // Kept or being rendered: no token spent.
  const kept = renders.peek(...question);
  if (!kept) {
    const take = s.clients.take(client);
    if (!take.allowed) return refused(take, client);
  }
  try {
    const rendered = await (kept ?? renders(...question));
    return rendered.kind === "pdf"
      ? { kind: "pdf", ...rendered.kept, cached: kept !== undefined }
      : rendered;
  } catch (error) {
    if (!(error instanceof QueueFullError)) throw error;
    log.warn("quote PDF queue full", { active: s.turns.active, waiting: s.turns.queued });
    return { kind: "busy", retryAfterSeconds: QUOTE_BUSY_RETRY_SECONDS };
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
