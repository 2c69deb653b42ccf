import type { NextFunction, Request, RequestHandler, Response } from "express";
import { log } from "../app/platform/log.server";
import { plainErrorPage } from "./error-page";
import { requestOrigin } from "./fetch-adapter";
import { ERROR_MESSAGES } from "../app/lib/messages";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by another site's page, for every action at once, before
 * the body is read: 403 with a French page. Browsers send Origin on POST (compared with our own
 * origin, scheme included, as React Router does), or `Origin: null` beside `Sec-Fetch-Site:
 * same-origin` when the page's referrer policy hides it; without Origin, Sec-Fetch-Site must not
 * say cross-site or same-site. Clients that send neither (curl, monitoring) are not browsers and
 * carry no visitor's cookies, so they pass.
 *
 * The site's one cross-site check: route modules have none of their own. React Router 7.18 has
 * its own for actions (Origin host against the request URL, `allowedActionOrigins`), which cannot
 * be turned off; it accepts everything this accepts (same origin, computed by the same
 * requestOrigin, or no Origin; an opaque `null`, accepted here, is not passed on to it:
 * fetch-adapter.ts), so it never fires behind this one. This one also reads
 * Sec-Fetch-Site, answers a French 403 rather than an English 400, and runs before the body is
 * read.
 */
export function refuseCrossSiteRequests(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    let allowed: boolean;
    if (origin === "null" && site === "same-origin") {
      // Our own page's form under a `no-referrer` policy (or a privacy setting): the browser hides
      // the origin but says, in a header no page can set, that the post comes from this origin.
      allowed = true;
    } else if (origin !== undefined) {
      let parsed: string | undefined;
      try {
        parsed = origin === "null" ? undefined : new URL(origin).origin;
      } catch {
        parsed = undefined;
      }
      allowed = parsed !== undefined && parsed === requestOrigin(req);
    } else {
      allowed = site === undefined || site === "same-origin" || site === "none";
    }
    if (allowed) return next();
    log.warn("cross-site request refused", {
      requestId: res.locals.requestId,
      method: req.method,
      path: req.path.slice(0, 200),
      origin: origin?.slice(0, 200),
      site,
    });
    res.setHeader("Connection", "close");
    res
      .status(403)
      .type("html")
      .send(plainErrorPage(ERROR_MESSAGES.crossSite, res.locals.requestId as string | undefined));
  };
}
