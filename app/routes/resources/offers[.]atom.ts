import { withDatabase } from "~/platform/availability.server";
import { offerFeedXml } from "~/features/offers/offer-feed.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/offers[.]atom";

/** GET /offers.atom: new and back-in-stock offers (issue 30), cached like the pages. */
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await withDatabase("offer feed", context, () => offerFeedXml(siteConfig()));
  return new Response(xml, { headers: { "Content-Type": "application/atom+xml; charset=utf-8" } });
}
