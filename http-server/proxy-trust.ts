import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Express } from "express";
import proxyaddr, { type TrustFunction } from "proxy-addr";
import type { TrustProxy } from "../app/platform/env.server";

export type { TrustFunction };

/**
 * The one decision "is this peer a proxy we believe?" (TRUST_PROXY), compiled once by proxy-addr,
 * Express's own: the Express app (req.ip, req.protocol, req.host, so the client address of rate
 * limits, sessions and the journal, the URL React Router sees, the cookies' Secure flag and the
 * cross-site check) and the page cache's fast path all ask it. From a peer that is not trusted,
 * X-Forwarded-For, -Proto and -Host are ignored.
 */
export function compileProxyTrust(setting: TrustProxy): TrustFunction {
  switch (setting.kind) {
    case "none":
      return () => false;
    case "any-peer":
      // The old TRUST_PROXY=true: one hop, whoever the peer is (Express's `trust proxy` = 1).
      return (_address, hop) => hop < 1;
    case "addresses":
      return proxyaddr.compile(setting.addresses);
  }
}

/** Makes `trust` the Express app's `trust proxy` (Express calls it as proxy-addr does). */
export function applyProxyTrust(app: Express, trust: TrustFunction): void {
  app.set("trust proxy", trust);
}

/** The Express app's compiled trust function (what applyProxyTrust set). */
export function proxyTrustOf(app: Express): TrustFunction {
  return app.get("trust proxy fn") as TrustFunction;
}

/**
 * HTTPS as the browser used it: the socket's TLS, or X-Forwarded-Proto's first value when the peer
 * is a trusted proxy (what Express's req.protocol says, for the fast path that has no Express).
 */
export function isSecureRequest(req: IncomingMessage, trust: TrustFunction): boolean {
  if ((req.socket as TLSSocket).encrypted === true) return true;
  if (!trust(req.socket.remoteAddress ?? "", 0)) return false;
  const header = req.headers["x-forwarded-proto"];
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? "").split(",")[0].trim() === "https";
}

/** The client's address: the closest one in X-Forwarded-For that is not a trusted proxy. */
export function clientAddress(req: IncomingMessage, trust: TrustFunction): string {
  return proxyaddr(req, trust);
}
