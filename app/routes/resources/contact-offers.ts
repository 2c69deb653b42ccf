import { monthlyLabel } from "~/lib/money";
import {
  OFFER_SEARCH_SHORT_MESSAGE,
  offerSearchSummary,
  parseOfferSearchTerm,
} from "~/lib/offer-search";
import { withDatabase } from "~/platform/availability.server";
import { searchOfferChoices } from "~/features/offers/offer-choices.server";
import { siteConfig } from "~/platform/site.server";
import type { Route } from "./+types/contact-offers";
import { cacheControl } from "~/lib/http-headers";

/** One match of the contact form's offer search, ready to show (app/client/contact-offer-search.ts). */
export type OfferSearchItem = { id: number; title: string; reference: string; price: string };
export type OfferSearchAnswer =
  { offers: OfferSearchItem[]; more: boolean; summary: string } | { error: string };

// Briefly cacheable by the browser and any CDN: an offer deactivated meanwhile shows for at most
// that long, and the form stores a request about it like any other (issue 11, decision 019).
const CACHE = cacheControl({ maxAge: 30, sMaxAge: 30 });

function json(body: OfferSearchAnswer, status = 200) {
  return Response.json(body, { status, headers: CACHE });
}

/** GET /contact/offers?q=: active offers by title or reference, for the combobox. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const term = parseOfferSearchTerm(new URL(request.url).searchParams.get("q"));
  if (term.status === "invalid") return json({ error: term.message }, 400);
  if (term.status === "empty") return json({ offers: [], more: false, summary: "" });
  if (term.status === "short")
    return json({ offers: [], more: false, summary: OFFER_SEARCH_SHORT_MESSAGE });
  const found = await withDatabase("contact offer search", context, () =>
    searchOfferChoices(term.term),
  );
  return json({
    offers: found.offers.map((o) => ({
      id: o.id,
      title: o.title,
      reference: o.reference,
      price: monthlyLabel(o.price, siteConfig().pricing),
    })),
    more: found.more,
    summary: offerSearchSummary(found.offers.length, found.more),
  });
}
