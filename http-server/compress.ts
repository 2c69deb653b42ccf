import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { IncomingMessage } from "node:http";
import compression from "compression";
import type { Request, Response } from "express";
import Negotiator from "negotiator";

// The one compression module (issue 43): what the client accepts (brotli first at equal q), the
// settings, and the three ways a body leaves compressed: as it streams (the middleware: static
// files, exports), whole as it is sent (a rendered answer) and once for a stored page (the page
// cache sends its copies to every visitor).
//
// Sent as made: brotli at quality 1, not the library's 4: on a 70 KB listing, 0.4 ms instead of
// 1.35 ms for 14.2 KB instead of 12.4 KB (still smaller than gzip -6), where a whole uncached
// render costs about 10 ms (issue 31). Stored: gzip -6 at once, brotli 9 off the request path.
const BROTLI_QUALITY = 1;
const STORED_BROTLI_QUALITY = 9;
const STORED_GZIP_LEVEL = 6;

/** Below this, an answer goes as it is (the compression middleware's default threshold). */
export const THRESHOLD_BYTES = 1024;

export type Encoding = "br" | "gzip" | "identity";

/** The encodings the client accepts, best first (by q, then brotli, gzip, identity). */
export function acceptedEncodings(req: IncomingMessage): Encoding[] {
  return new Negotiator(req).encodings(["br", "gzip", "identity"], {
    preferred: ["br", "gzip"],
  }) as Encoding[];
}

/** A stored page's gzip copy (a few ms, once per page and version); none under the threshold. */
export function gzipForStore(body: Buffer): Buffer | undefined {
  return body.length < THRESHOLD_BYTES ? undefined : gzipSync(body, { level: STORED_GZIP_LEVEL });
}

const brotliAsync = promisify(brotliCompress);

/** A stored page's brotli copy, made on the thread pool (off the request path). */
export function brotliForStore(body: Buffer): Promise<Buffer> {
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

const middleware = compression({
  brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  threshold: THRESHOLD_BYTES,
});

/**
 * The compression middleware, for answers that stream (static files, exports): it wraps the
 * response's writes and decides once the headers go out. Once per response: a static file not
 * found goes on to React Router, which may stream its answer.
 */
export function compressStream(req: Request, res: Response, next: () => void): void {
  if (res.locals.compressing) return next();
  res.locals.compressing = true;
  middleware(req, res, next);
}

/** compressStream() for a response about to stream, outside the middleware chain. */
export function wrapForCompression(res: Response): Promise<void> {
  return new Promise((resolve) => compressStream(res.req, res, resolve));
}

/**
 * A whole body (a rendered page), compressed in one call as the middleware would do it in a
 * stream: brotli, else gzip, as the client accepts them (brotli first at equal q), for
 * compressible types of 1 KB or more, unless the answer says no-transform or is encoded already.
 */
export function compressWhole(res: Response, body: Buffer): Buffer {
  const req = res.req;
  if (!compression.filter(req, res)) return body;
  if (/no-transform/i.test(String(res.getHeader("Cache-Control") ?? ""))) return body;
  res.vary("Accept-Encoding");
  if (body.length < THRESHOLD_BYTES || res.hasHeader("Content-Encoding")) return body;
  if (req.method === "HEAD") return body;
  const [encoding] = acceptedEncodings(req);
  if (encoding === "br") {
    res.setHeader("Content-Encoding", "br");
    return brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  if (encoding === "gzip") {
    res.setHeader("Content-Encoding", "gzip");
    return gzipSync(body);
  }
  return body;
}
