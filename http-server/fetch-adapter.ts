import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { VIEW_TOKEN_HEADER } from "../app/lib/http-headers";
import { compressWhole, wrapForCompression } from "./compress";

// The two halves of @react-router/express's request handler (same behaviour), kept apart so that
// the page cache (page-cache.ts) can look at a rendered response before it is sent. One change:
// the body comes from req.rawBody when readRequestBody (request-body.ts) has read and
// size-checked it.
// Not @remix-run/node-fetch-server: its createRequest reads the body from the socket (ours is
// already read and size-checked) and builds the URL from Host alone (ours follows Express's
// trust proxy setting, as the cross-site check does), so it would replace little of this file.

/** A host as a client may send it: name or IPv4 or [IPv6], with an optional port. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * scheme://host[:port] of the request, normalised by the URL parser like a browser's Origin (the
 * default port dropped: `Host: example.fr:443` over HTTPS is https://example.fr). Express gives
 * the scheme and host from X-Forwarded-Proto and X-Forwarded-Host only when the peer is a trusted
 * proxy (TRUST_PROXY, compiled once in http-server/proxy-trust.ts).
 */
export function requestOrigin(req: ExpressRequest): string {
  const host = req.host ?? "";
  try {
    return new URL(`${req.protocol}://${HOST.test(host) ? host : "localhost"}`).origin;
  } catch {
    return `${req.protocol}://localhost`;
  }
}

/** The Fetch API request React Router expects, for an Express request. */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(`${requestOrigin(req)}${req.originalUrl}`);

  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());

  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    // An opaque origin reaches here only beside `Sec-Fetch-Site: same-origin` (./cross-site.ts
    // refused every other): React Router's own check would refuse `null` as another site's origin.
    if (key === "origin" && values === "null") continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
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

/** Bodies above this size stream instead (through the compression middleware). */
const WHOLE_BODY_MAX_BYTES = 1024 * 1024;

/**
 * Sends a Fetch API response through Express, compressed as the client accepts (./compress.ts):
 * a body of known length (a rendered page: app/entry.server.tsx) whole, in one write and one
 * compression call; any other through the compression middleware as it streams.
 */
export async function sendFetchResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    // For the page cache only (page-cache.ts): the token is in the page already.
    if (key === VIEW_TOKEN_HEADER.toLowerCase()) continue;
    // A route's header replaces the site's default (Referrer-Policy of a page with a secret in its
    // address); only cookies and Vary add up.
    if (key === "set-cookie" || key === "vary") res.append(key, value);
    else res.setHeader(key, value);
  }
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const length = Number(response.headers.get("Content-Length") ?? Number.NaN);
  if (length <= WHOLE_BODY_MAX_BYTES) {
    const body = compressWhole(res, Buffer.from(await response.arrayBuffer()));
    res.setHeader("Content-Length", body.length);
    res.end(body);
    return;
  }
  await wrapForCompression(res);
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
