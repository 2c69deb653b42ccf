// The loader and action of a mailed link's page (stock alerts', saved searches': confirm,
// unsubscribe). The GET page only shows what the link would do and a button (a mail scanner that
// opens or prefetches the link changes nothing); the button's POST does it. An unknown, expired or
// used link answers 404; every answer keeps the secret address out of referrers, caches and indexes.
import { data } from "react-router";
import { alertTokenParam } from "~/features/alerts/alert-form-schema";
import { ALERT_TOKEN_PARAM } from "~/features/alerts/alerts";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { withDatabase } from "~/platform/availability.server";
import { assertMethod, formText, readForm } from "~/platform/form.server";

type Context = { requestId: string };
type InvalidLink = { kind: "invalid-link" };
const isInvalidLink = (result: object): result is InvalidLink =>
  "kind" in result && result.kind === "invalid-link";

/** GET: what the link's token reaches (`found`), or a 404 with nothing. */
export async function tokenLinkLoader<Found>(
  request: Request,
  context: Context,
  what: string,
  find: (token: string | undefined) => Promise<Found | undefined>,
) {
  const token = alertTokenParam.parse(
    new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM) ?? undefined,
  );
  const found = await withDatabase(what, context, () => find(token));
  if (!found || !token)
    return data({ found: null, token: "" }, { status: 404, headers: SECRET_LINK_HEADERS });
  return data({ found, token }, { headers: SECRET_LINK_HEADERS });
}

/**
 * POST: the page's button (the token in the form) does what the link says, or, with `oneClick`,
 * a mail client's one-click unsubscribe (RFC 8058: posted by the provider's server with the token
 * left in the address, no cookie, no Origin, which the cross-site check lets through).
 */
export async function tokenLinkAction<Done extends object>(
  request: Request,
  context: Context,
  what: string,
  run: (token: string | undefined, context: Context) => Promise<Done | InvalidLink>,
  options: { oneClick?: boolean } = {},
) {
  assertMethod(request, "POST");
  const form = await readForm(request);
  const inAddress = options.oneClick
    ? new URL(request.url).searchParams.get(ALERT_TOKEN_PARAM)
    : null;
  const token = alertTokenParam.parse(formText(form, ALERT_TOKEN_PARAM) || inAddress || undefined);
  const result = await withDatabase(what, context, () => run(token, context));
  if (isInvalidLink(result))
    return data({ done: null }, { status: 404, headers: SECRET_LINK_HEADERS });
  // An explicit 200: else the loader's 404 (no token in this address, or the row gone) would be it.
  return data({ done: result }, { status: 200, headers: SECRET_LINK_HEADERS });
}

/** The action's headers after a post, else the loader's. */
export function tokenLinkHeaders({
  loaderHeaders,
  actionHeaders,
}: {
  loaderHeaders: Headers;
  actionHeaders: Headers;
}) {
  return new Headers(actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);
}
