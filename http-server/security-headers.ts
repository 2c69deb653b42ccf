import { createHash, randomFillSync } from "node:crypto";
import type { ServerResponse } from "node:http";
import { DEFAULT_SITE_SLUG, themeStorageKey } from "../app/lib/site";
import { themeBootScript } from "../app/platform/theme";
import { siteConfig } from "../app/platform/site.server";

const sha256 = (text: string) =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

let inlineHashes: string | undefined;

/**
 * The hashes of the inline scripts every page carries (root.tsx), computed once from the functions
 * that write them: the theme boot script, for the configured site and for root.tsx's fallback (an
 * error page rendered without the root loader's data). Their text is fixed for the life of the
 * process, so a stored page is served as it was rendered.
 */
function inlineScriptHashes(): string {
  inlineHashes ??= [
    ...new Set(
      [siteConfig().slug, DEFAULT_SITE_SLUG].map((slug) =>
        sha256(themeBootScript(themeStorageKey({ slug }))),
      ),
    ),
  ].join(" ");
  return inlineHashes;
}

/**
 * The one Content-Security-Policy of the site. Inline scripts run only when their hash is listed
 * (the theme boot script) or, on pages that hydrate React (admin, a page showing a flash toast),
 * when they carry this response's nonce: React Router's hydration scripts hold per-request data,
 * so no hash can be known in advance. Pages without hydration carry no nonce attribute, which is
 * what lets the page cache keep and serve their bytes unchanged under the policy without a nonce.
 */
export function contentSecurityPolicy(nonce?: string): string {
  // Built once: every response sets it, a rendered page twice.
  policyParts ??= [
    `default-src 'self'; script-src 'self' ${inlineScriptHashes()}`,
    [
      "",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  ];
  const [scripts, rest] = policyParts;
  return nonce ? `${scripts} 'nonce-${nonce}'${rest}` : `${scripts}${rest}`;
}

let policyParts: [string, string] | undefined;

const NONCE_BYTES = 16;
// Random bytes drawn for 256 nonces at a time, as Node does for randomUUID(): one call to the
// system's generator instead of one per rendered page.
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/** A fresh nonce for one rendered response: 16 random bytes, in base64. */
export function newNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/**
 * The headers every response carries, stored pages included: security headers and the policy
 * without a nonce (`withCsp`: not in development, where Vite injects scripts of its own). A page
 * rendered by React Router replaces the policy with one that adds its nonce (http-server/http.ts).
 */
export function setSecurityHeaders(
  res: ServerResponse,
  options: { secure: boolean; withCsp: boolean },
): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  if (options.withCsp) res.setHeader("Content-Security-Policy", contentSecurityPolicy());
  if (options.secure) {
    res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
}
