// The HTTP side of `Confirmez votre identité` (issue 20), shared by the actions that ask it
// (users.tsx, personal-data.tsx, webhooks.tsx) and the confirmation page of the exports (confirm-identity.tsx).
import { data, redirect } from "react-router";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { retryAfter } from "~/lib/http-headers";
import { PRIVATE_HEADERS, type AdminSession } from "~/features/accounts/auth.server";
import {
  REAUTH_FIELDS,
  recentlyAuthenticated,
  type IdentityCheck,
} from "~/features/accounts/own-credentials.server";
import { countRefusal } from "~/platform/metrics.server";
import type { ReauthRequest } from "~/features/accounts/confirm-identity";

// ReauthRequest is the confirmation card's props (components below routes import no route).
export type { ReauthRequest };

export type ReauthActionData = { reauth: ReauthRequest };

const REAUTH_NAMES = new Set<string>(Object.values(REAUTH_FIELDS));

/** The posted text fields, but the password and code of the confirmation itself. */
function carriedFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && !REAUTH_NAMES.has(name) && !(name in fields)) {
      fields[name] = value;
    }
  }
  return fields;
}

/**
 * null when the action may go on (recent session, or identity just confirmed); otherwise the
 * answer that shows `Confirmez votre identité` with what was asked carried in hidden fields, so
 * that confirming carries on with it (no JavaScript needed).
 */
export function identityAnswer(check: IdentityCheck, form: FormData) {
  if (check.kind === "recent" || check.kind === "confirmed") return null;
  const reauth: ReauthRequest = { fields: carriedFields(form), secondFactor: check.secondFactor };
  if (check.kind === "needed") {
    return data<ReauthActionData>({ reauth }, { status: 200, headers: PRIVATE_HEADERS });
  }
  if (check.kind === "rate-limited") {
    countRefusal("reauthentication");
    return data<ReauthActionData>(
      { reauth: { ...reauth, error: ADMIN_MESSAGES.tooManyAttempts(check.retryAfterSeconds) } },
      { status: 429, headers: { ...PRIVATE_HEADERS, ...retryAfter(check.retryAfterSeconds) } },
    );
  }
  return data<ReauthActionData>(
    { reauth: { ...reauth, error: ADMIN_MESSAGES.reauthRefused } },
    { status: 401, headers: PRIVATE_HEADERS },
  );
}

/** The confirmation page that leads on to `path` (a GET: an export). */
export function confirmIdentityUrl(path: string): string {
  return `/admin/confirm?${new URLSearchParams({ redirectTo: path })}`;
}

/** For a sensitive GET (an export): on to the confirmation page unless the session is recent. */
export function requireRecentIdentity(request: Request, session: AdminSession): void {
  if (recentlyAuthenticated(session)) return;
  const url = new URL(request.url);
  throw redirect(confirmIdentityUrl(`${url.pathname}${url.search}`), { headers: PRIVATE_HEADERS });
}
