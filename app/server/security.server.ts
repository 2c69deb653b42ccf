import { data } from "react-router";

/**
 * Rejects state-changing requests sent by another site's page (CSRF). Browsers send Origin on
 * POST; when it is absent, Sec-Fetch-Site tells the same. Non-browser clients send neither.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const host = new URL(request.url).host;
  let sameOrigin = true;
  if (origin !== null) {
    try {
      sameOrigin = origin !== "null" && new URL(origin).host === host;
    } catch {
      sameOrigin = false;
    }
  } else {
    const site = request.headers.get("sec-fetch-site");
    sameOrigin = site === null || site === "same-origin" || site === "none";
  }
  if (!sameOrigin) {
    throw data({ error: "Requête refusée : origine non autorisée." }, { status: 403 });
  }
}
