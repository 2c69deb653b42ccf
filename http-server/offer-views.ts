import type { IncomingMessage, ServerResponse } from "node:http";
import { isbot } from "isbot";
import { countOfferView } from "../app/features/attribution/offer-views.server";
import { memo } from "../app/lib/memo";

const OFFER_PAGE = /^\/offers\/([a-z0-9-]{1,200})$/;
/** isbot's patterns take tens of µs on a browser's agent, longer than a cached page's answer. */
const robot = memo((userAgent: string) => isbot(userAgent), { max: 2_000 });

/**
 * Counts a view of an offer's page (issue 42) once its answer is sent, whoever answered it (the
 * page cache or React Router): a GET answered 200 or 304, not a robot's. Nothing about the visitor
 * is kept: the offer and the day only.
 */
export function watchOfferView(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== "GET") return;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const match = OFFER_PAGE.exec(query === -1 ? url : url.slice(0, query));
  if (!match || robot(req.headers["user-agent"] ?? "")) return;
  res.once("finish", () => {
    if (res.statusCode === 200 || res.statusCode === 304) countOfferView(match[1]);
  });
}
