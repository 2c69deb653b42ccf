import { describe, expect, it } from "vitest";
import {
  renderSavedSearchConfirmationMail,
  renderSavedSearchDigestMail,
} from "./saved-search-mail";
import { canonicalSearchQuery, describeSavedSearch } from "./saved-searches";

describe("saved searches", () => {
  it("keeps the listing's canonical filters, without order or page, and nothing for no filter", () => {
    expect(canonicalSearchQuery(new URLSearchParams("type=loa&q=EPYC&sort=price_asc&page=3"))).toBe(
      "?q=EPYC&type=loa",
    );
    expect(canonicalSearchQuery(new URLSearchParams("sort=price_asc&min=-1&utm_source=x"))).toBe(
      undefined,
    );
  });

  it("says a search in French words", () => {
    expect(describeSavedSearch("?q=epyc&type=dedicated&max=300&ram_min=64&available=1")).toBe(
      "« epyc » · Serveur Dédié · jusqu'à 300 € HT/mois · RAM min 64 · disponible maintenant",
    );
    expect(describeSavedSearch("")).toBe("Toutes les offres");
  });

  it("mails the confirmation link and a digest listing each search's offers, each with the unsubscribe link", () => {
    const confirmation = renderSavedSearchConfirmationMail({
      query: "?q=<script>",
      siteName: "Site",
      listingUrl: "https://example.test/offers?q=%3Cscript%3E",
      confirmUrl: "https://example.test/recherches/confirmer?jeton=abc",
      unsubscribeUrl: "https://example.test/recherches/desinscription?jeton=abc",
    });
    expect(confirmation.text).toContain("/recherches/confirmer?jeton=abc");
    expect(confirmation.html).not.toContain("<script>");
    const offer = (n: number) => ({
      title: `Offre ${n}`,
      reference: `REF-${n}`,
      price: "100 € HT/mois",
      delivery: "Livraison 24 h",
      url: `https://example.test/offers/offre-${n}`,
    });
    const digest = renderSavedSearchDigestMail({
      searches: [
        {
          query: "?q=epyc",
          listingUrl: "https://example.test/offers?q=epyc",
          offers: [offer(1), offer(2)],
        },
        {
          query: "?type=loa",
          listingUrl: "https://example.test/offers?type=loa",
          offers: [offer(3)],
        },
      ],
      unsubscribeUrl: "https://example.test/recherches/desinscription?jeton=xyz",
    });
    expect(digest.subject).toBe("3 nouvelles offres pour vos recherches");
    for (const n of [1, 2, 3]) expect(digest.html).toContain(`/offers/offre-${n}`);
    expect(digest.text).toContain("desinscription?jeton=xyz");
  });
});
