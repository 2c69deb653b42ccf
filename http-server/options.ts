import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ServerBuild } from "react-router";
import { apiPreflight } from "../app/features/offers/api-response.server";
import { cacheControl } from "../app/lib/http-headers";
import { ERROR_MESSAGES } from "../app/lib/messages";
import { plainErrorPage } from "./error-page";
import { routeMatcher } from "./metrics";

const READS = "GET, HEAD";
const READS_AND_POSTS = "GET, HEAD, POST";

/**
 * The methods each address takes, for `Allow`: reads, and POST where the route has an action.
 * Without the build's route table (development), every address is said to take all three.
 */
export function allowedMethods(
  routes: ServerBuild["routes"] | undefined,
): (pathname: string) => string {
  if (!routes) return () => READS_AND_POSTS;
  const match = routeMatcher(routes);
  return (pathname) => (match(pathname)?.route.module.action ? READS_AND_POSTS : READS);
}

/**
 * OPTIONS, answered before the application (issue 39): React Router hands OPTIONS to loaders, so
 * that `OPTIONS /offers.atom` or `/contact/offers?q=…` ran a query outside the per-client render
 * limit. The API's addresses (`/api/…`) answer the CORS preflight (204, what a cross-site read may
 * send); every other address 405 with `Allow`. No loader ever runs for it.
 */
export function answerOptions(allowOf: (pathname: string) => string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "OPTIONS") return next();
    if (req.path.startsWith("/api/")) {
      const preflight = apiPreflight();
      preflight.headers.forEach((value, name) => res.setHeader(name, value));
      res.status(preflight.status).end();
      return;
    }
    res
      .status(405)
      .set({ Allow: allowOf(req.path), ...cacheControl("no-store") })
      .type("html")
      .send(
        plainErrorPage(ERROR_MESSAGES.methodNotAllowed, res.locals.requestId as string | undefined),
      );
  };
}
