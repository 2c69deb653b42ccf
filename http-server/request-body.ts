import type { NextFunction, Request, RequestHandler, Response } from "express";
import getRawBody from "raw-body";
import { ERROR_MESSAGES, type ErrorCopy } from "../app/lib/messages";
import { log } from "../app/platform/log.server";
import { plainErrorPage } from "./error-page";

declare module "express-serve-static-core" {
  interface Request {
    /** The whole request body, read by readRequestBody (methods other than GET and HEAD). */
    rawBody?: Buffer;
  }
}

/** Largest request body accepted (form posts); larger ones answer 413 before any parsing. */
export const MAX_BODY_BYTES = 256 * 1024;

function reject(req: Request, res: Response, status: 413 | 415, copy: ErrorCopy) {
  if (res.headersSent) return;
  // The rest of the body is not read: close the connection once the answer is sent.
  res.setHeader("Connection", "close");
  res.status(status).type("html").send(plainErrorPage(copy, res.locals.requestId));
  log.warn("request body refused", {
    requestId: res.locals.requestId,
    method: req.method,
    path: req.path.slice(0, 200),
    status,
  });
}

/** How long a refused upload's unread rest is read and dropped, at most (nginx's lingering_time). */
const LINGER_MS = 30_000;

/**
 * An upload refused before its end (a file over its limit, too many files, an unknown link) is
 * answered while the client still sends it, and the parser stops reading: Node then leaves the
 * rest paused on a kept-alive connection, so the client never finishes sending, and a request it
 * sends next on that connection waits behind it until the keep-alive timeout resets it. Once the
 * answer is sent, the rest is read and dropped (at most `maxBytes`, LINGER_MS), as a lingering
 * close does: the client reads the answer, and the connection serves its next request.
 */
function dropUnreadBodyAfterAnswer(req: Request, res: Response, maxBytes: number) {
  res.once("finish", () => {
    if (req.readableEnded || req.destroyed) return;
    // The parser's stream no longer reads: it would keep every dropped byte in its queue.
    req.removeAllListeners("data");
    let left = maxBytes;
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    req.on("data", (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) req.socket.destroy();
    });
    req.once("end", () => clearTimeout(timer));
    req.once("close", () => clearTimeout(timer));
    req.resume();
  });
}

/**
 * Reads the body of state-changing requests into memory, up to maxBytes, before React Router
 * sees it (its request.formData() would read any size). raw-body (what express.raw uses) refuses
 * a larger declared Content-Length at once and counts a body without one (chunked) as it streams.
 * Not express.raw itself: on a refused body it reads the whole request before answering, so a
 * declared 10 GB would hold the connection until it times out; here the 413 goes out at once and
 * the connection closes. Compressed bodies are refused with 415.
 */
export function readRequestBody(
  maxBytes: number,
  uploads?: { path: RegExp; maxBytes: number },
): RequestHandler {
  const tooLarge = ERROR_MESSAGES.tooLargeLimit(Math.floor(maxBytes / 1024));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    if (encoding !== "identity") {
      return reject(req, res, 415, ERROR_MESSAGES.compressed);
    }
    // File uploads (issue 41) stream to their action, whose multipart parser counts each file
    // and the whole as they arrive; a declared length over the upload limit is refused here.
    const type = (req.headers["content-type"] ?? "").toLowerCase();
    if (uploads && type.startsWith("multipart/form-data") && uploads.path.test(req.path)) {
      const declared = Number(req.headers["content-length"] ?? 0);
      if (declared > uploads.maxBytes) {
        req.resume();
        return reject(
          req,
          res,
          413,
          ERROR_MESSAGES.tooLargeLimit(Math.floor(uploads.maxBytes / 1024)),
        );
      }
      dropUnreadBodyAfterAnswer(req, res, uploads.maxBytes);
      return next();
    }
    getRawBody(req, { length: req.headers["content-length"], limit: maxBytes }).then(
      (body) => {
        req.rawBody = body;
        next();
      },
      (error: { type?: string }) => {
        if (error.type === "entity.too.large") {
          req.resume(); // discard what is still in flight; the socket closes after the answer
          reject(req, res, 413, tooLarge);
          return;
        }
        // The client went away mid-body: nobody is left to answer.
        res.destroy();
      },
    );
  };
}
