import { randomUUID } from "node:crypto";
import { FLASH_MESSAGES, isFlashKey, type FlashKey, type FlashToast } from "~/lib/admin-messages";
import { isSecureRequest, readCookie, serializeCookie } from "./cookies.server";

export const FLASH_COOKIE = "flash";

/**
 * A one-shot message for the next page (after a redirect). The cookie carries only a key from a
 * fixed list, never text, so it needs no signature: a forged value can at most pick another of
 * our own messages. It lives one minute and the next page load clears it.
 */
export function flashCookie(request: Request, key: FlashKey): string {
  return serializeCookie(FLASH_COOKIE, key, { maxAge: 60, secure: isSecureRequest(request) });
}

/** The pending flash message and the Set-Cookie header that consumes it, if there is one. */
export function readFlash(request: Request): { toast: FlashToast | null; setCookie?: string } {
  const value = readCookie(request, FLASH_COOKIE);
  if (value === undefined) return { toast: null };
  const setCookie = serializeCookie(FLASH_COOKIE, "", {
    maxAge: 0,
    secure: isSecureRequest(request),
  });
  if (!isFlashKey(value)) return { toast: null, setCookie };
  return { toast: { ...FLASH_MESSAGES[value], id: randomUUID() }, setCookie };
}

/** Headers for a redirect that carries a flash message (and possibly other cookies). */
export function withFlash(request: Request, key: FlashKey, init?: HeadersInit): Headers {
  const headers = new Headers(init);
  headers.append("Set-Cookie", flashCookie(request, key));
  return headers;
}
