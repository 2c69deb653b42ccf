import { withDatabase } from "~/server/availability.server";
import { offerFeedXml } from "~/server/offer-feed.server";
import { siteConfig } from "~/server/site.server";
import type { Route } from "./+types/offers[.]atom";

/** GET /offers.atom: new and back-in-stock offers (issue 30), cached like the pages. */
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await withDatabase("offer feed", context, () => offerFeedXml(siteConfig()));
  return new Response(xml, { headers: { "Content-Type": "application/atom+xml; charset=utf-8" } });
}
