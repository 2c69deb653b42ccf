import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import compression from "compression";
import type { Request, Response } from "express";
import Negotiator from "negotiator";

// Answers compressed as they are sent (pages no cache holds, the administration, static files):
// brotli at quality 1, not the library's 4: on a 70 KB listing, 0.4 ms instead of 1.35 ms for
// 14.2 KB instead of 12.4 KB (still smaller than gzip -6), where a whole uncached render costs
// about 10 ms (issue 31). Stored pages carry their own copies, compressed once (page-cache.ts).
const BROTLI_QUALITY = 1;

/** Below this, an answer goes as it is (the compression middleware's default threshold). */
const THRESHOLD_BYTES = 1024;

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
  const [encoding] = new Negotiator(req).encodings(["br", "gzip", "identity"], {
    preferred: ["br", "gzip"],
  });
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
