import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * Helpers for the system tests beside the launchers of harness/: scratch directories and the
 * contact form posted as many clients.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

export function tempDir(label: string): string {
  const dir = path.join(
    ROOT,
    "test-results",
    "system",
    `${label}-${randomBytes(4).toString("hex")}`,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}

export type ContactFields = {
  name: string;
  email: string;
  message: string;
  phone?: string;
  offer?: string;
};

/**
 * Posts the contact form as a browser without JavaScript would (no Origin header: same-origin check
 * passes), from a distinct client address (X-Forwarded-For, honoured with TRUST_PROXY=loopback) so that a
 * per-address rate limit does not throttle the load. Returns the HTTP status.
 */
export async function postContact(
  base: string,
  fields: ContactFields,
  clientIp: string,
  timeoutMs = 15_000,
): Promise<number> {
  const res = await fetch(`${base}/contact`, {
    method: "POST",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": clientIp,
    },
    body: new URLSearchParams({ phone: "", offer: "general", ...fields }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A distinct address in 10.0.0.0/8 for client number n. */
export function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A form post as the site's own page sends it (its Origin), redirects not followed. */
export function postSiteForm(
  base: string,
  path: string,
  fields: Record<string, string>,
  cookie = "",
  clientIp = clientAddress(9),
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: base,
      "X-Forwarded-For": clientIp,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

/** Signs in through /auth and returns the session cookie (`admin_session=…`). */
export async function signInOverHttp(
  base: string,
  credentials: { email: string; password: string },
): Promise<string> {
  const res = await postSiteForm(base, "/auth", credentials);
  const set = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="));
  if (!set) throw new Error(`sign-in refused (${res.status})`);
  return set.split(";")[0];
}
