import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import {
  createRequestHandler as createReactRouterHandler,
  type AppLoadContext,
  type ServerBuild,
} from "react-router";

/**
 * React Router's Express adapter (@react-router/express 7.18.4), with one change: the body comes
 * from req.rawBody when readRequestBody (./request-body.ts) has read and size-checked it.
 */
export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode?: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const handleRequest = createReactRouterHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = toFetchRequest(req, res);
      const response = await handleRequest(request, options.getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchHeaders(requestHeaders: ExpressRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/** scheme://host[:port] of the request, worked out as React Router's adapter does. */
export function requestOrigin(req: ExpressRequest): string {
  const [, forwardedPort] = req.app.enabled("trust proxy")
    ? (req.get("X-Forwarded-Host")?.split(":") ?? [])
    : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const forwarded = Number.parseInt(forwardedPort ?? "", 10);
  const direct = Number.parseInt(hostPort ?? "", 10);
  const port = Number.isSafeInteger(forwarded)
    ? forwarded
    : Number.isSafeInteger(direct)
      ? direct
      : "";
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return `${req.protocol}://${hostname}${port ? `:${port}` : ""}`;
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(`${requestOrigin(req)}${req.originalUrl}`);

  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: toFetchHeaders(req.headers),
    signal: controller.signal,
  };
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (req.rawBody) {
      init.body = new Uint8Array(req.rawBody);
    } else {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new Request(url.href, init);
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
