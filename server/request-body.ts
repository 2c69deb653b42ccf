import type { NextFunction, Request, RequestHandler, Response } from "express";
import { log } from "../app/server/log.server";
import { plainErrorPage } from "./error-page";

declare module "express-serve-static-core" {
  interface Request {
    /** The whole request body, read by readRequestBody (methods other than GET and HEAD). */
    rawBody?: Buffer;
  }
}

function reject(req: Request, res: Response, status: 413 | 415, title: string, detail: string) {
  if (res.headersSent) return;
  // The rest of the body is not read: close the connection once the answer is sent.
  res.setHeader("Connection", "close");
  res
    .status(status)
    .type("html")
    .send(plainErrorPage(title, detail, res.locals.requestId));
  log.warn("request body refused", {
    requestId: res.locals.requestId,
    method: req.method,
    path: req.path.slice(0, 200),
    status,
  });
}

/**
 * Reads the body of state-changing requests into memory, up to maxBytes, before React Router
 * sees it (its request.formData() would read any size). A larger declared Content-Length is
 * refused at once with 413; a body without one (chunked) is counted as it streams and refused
 * as soon as it passes the limit. Compressed bodies are refused with 415.
 */
export function readRequestBody(maxBytes: number): RequestHandler {
  const kilobytes = Math.floor(maxBytes / 1024);
  const tooLarge = [
    "Requête trop volumineuse",
    `Les données envoyées dépassent la taille maximale autorisée (${kilobytes} Ko).`,
  ] as const;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    if (encoding !== "identity") {
      return reject(
        req,
        res,
        415,
        "Format non pris en charge",
        "Les données compressées ne sont pas acceptées.",
      );
    }
    const declared = req.headers["content-length"];
    if (declared !== undefined && !(Number(declared) <= maxBytes)) {
      return reject(req, res, 413, ...tooLarge);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = () => {
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        finish();
        req.resume(); // discard what is still in flight; the socket closes after the answer
        reject(req, res, 413, ...tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (done) return;
      finish();
      req.rawBody = Buffer.concat(chunks, received);
      next();
    };
    const onError = () => {
      if (done) return;
      finish();
      // The client went away mid-body: nobody is left to answer.
      res.destroy();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onError);
  };
}
