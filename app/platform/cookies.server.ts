import { parse, serialize } from "cookie";

/** The value of cookie `name` in the request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  return header ? parse(header)[name] : undefined;
}

export type CookieOptions = {
  /** Seconds; 0 deletes the cookie. Omitted: a browser-session cookie. */
  maxAge?: number;
  secure: boolean;
  httpOnly?: boolean;
  sameSite?: "Lax" | "Strict";
  path?: string;
};

/** A Set-Cookie value: HttpOnly and SameSite=Lax unless told otherwise. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const maxAge = options.maxAge === undefined ? undefined : Math.floor(options.maxAge);
  return serialize(name, value, {
    path: options.path ?? "/",
    maxAge,
    // Old browsers ignore Max-Age: a deleted cookie also gets a date in the past.
    expires: maxAge !== undefined && maxAge <= 0 ? new Date(0) : undefined,
    httpOnly: options.httpOnly ?? true,
    sameSite: options.sameSite === "Strict" ? "strict" : "lax",
    secure: options.secure,
  });
}

/**
 * HTTPS or not, as the server sees the request. Behind a trusted proxy (TRUST_PROXY lists its
 * address), the Express adapter builds request.url from X-Forwarded-Proto, so this is true when the
 * browser used HTTPS; from any other peer that header is ignored (http-server/proxy-trust.ts).
 */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
