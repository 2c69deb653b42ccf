import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import compression from "compression";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { MAX_BODY_BYTES } from "../app/lib/limits";
import { ping } from "../app/server/db.server";
import { env } from "../app/server/env.server";
import { log } from "../app/server/log.server";
import { refuseCrossSiteRequests } from "./cross-site";
import { plainErrorPage } from "./error-page";
import { sendFetchResponse, toFetchRequest } from "./fetch-adapter";
import { readRequestBody } from "./request-body";

declare module "react-router" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
    clientIp: string;
  }
}

export type HttpOptions = {
  /** Production: the built server. Development: a loader that asks Vite for it on each request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Development only: Vite's middleware, which serves source modules and HMR. */
  viteMiddleware?: express.RequestHandler;
  clientDir?: string;
};

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function createHttpApp(options: HttpOptions): Express {
  const e = env();
  const app = express();
  app.disable("x-powered-by");
  // One reverse proxy in front: req.ip is the address it saw (the last X-Forwarded-For entry),
  // which a client cannot forge by sending its own X-Forwarded-For; req.secure follows X-Forwarded-Proto.
  if (e.TRUST_PROXY) app.set("trust proxy", 1);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.locals.cspNonce = randomBytes(16).toString("base64");
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    if (!options.viteMiddleware) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(res.locals.cspNonce));
    }
    if (req.secure)
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  });

  app.use(compression());

  app.get("/healthz", async (_req, res) => {
    try {
      await ping();
      res.setHeader("Cache-Control", "no-store");
      res.json({ status: "ok" });
    } catch {
      res.status(503).setHeader("Cache-Control", "no-store").json({ status: "unavailable" });
    }
  });

  // /offres is a permanent alias of the canonical /offers, query string kept.
  app.get(/^\/offres(\/.*)?$/, (req, res) => {
    const rest = req.path.slice("/offres".length);
    const query = req.originalUrl.slice(req.path.length);
    res.redirect(301, `/offers${rest}${query}`);
  });

  if (options.viteMiddleware) {
    app.use(options.viteMiddleware);
  } else if (options.clientDir) {
    // Fingerprinted build output: cached forever.
    app.use(
      "/assets",
      express.static(`${options.clientDir}/assets`, {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
    );
    app.use(express.static(options.clientDir, { maxAge: "1h", index: false }));
  }

  // Posts from other sites are refused (403) for every action; bodies are read and size-checked
  // here (413) before React Router's request.formData().
  app.use(refuseCrossSiteRequests());
  app.use(readRequestBody(MAX_BODY_BYTES));

  const handleRequest = createRequestHandler(options.build, process.env.NODE_ENV);
  const render = (req: Request, res: Response) =>
    handleRequest(toFetchRequest(req, res), {
      requestId: res.locals.requestId as string,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "unknown",
    });
  app.all(/.*/, async (req, res, next) => {
    try {
      await sendFetchResponse(res, await render(req, res));
    } catch (error) {
      next(error);
    }
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.error("unhandled request error", {
      requestId: res.locals.requestId,
      path: req.path,
      error,
    });
    if (res.headersSent) return;
    res
      .status(500)
      .type("html")
      .send(
        plainErrorPage(
          "Une erreur inattendue s'est produite",
          "Veuillez réessayer dans quelques instants. Si le problème persiste, contactez-nous en indiquant la référence ci-dessous.",
          res.locals.requestId as string | undefined,
        ),
      );
  });

  return app;
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (oversized headers or URL,
 * malformed syntax) get a short French answer instead of an empty one.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const [status, text] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? ["431 Request Header Fields Too Large", "En-têtes de requête trop volumineux."]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? ["408 Request Timeout", "Délai de requête dépassé."]
          : ["400 Bad Request", "Requête invalide."];
    const body = Buffer.from(`${text}\n`, "utf8");
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${body.length}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body.toString("utf8")}`,
    );
  });
}
