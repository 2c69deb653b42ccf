import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

// The site's one table of addresses (spec section 2), grouped by area:
//   routes/public/     pages for visitors (server-rendered, no React in the browser)
//   routes/admin/      the administrator area (every loader and action calls requireAdmin())
//   routes/resources/  answers that are not pages (XML, text, JSON, CSV)
// /offres is redirected to /offers by the HTTP server (http-server/http.ts).
export default [
  // Resources for crawlers and scripts.
  route("sitemap.xml", "routes/resources/sitemap[.]xml.ts"),
  route("robots.txt", "routes/resources/robots[.]txt.ts"),
  route("contact/offers", "routes/resources/contact-offers.ts"),
  // The company of a SIREN typed on the contact form (issue 41, SIRENE_API_URL).
  route("entreprise/:siren", "routes/resources/company-lookup.ts"),
  route("admin/contacts/export.csv", "routes/resources/admin-contacts-export[.]csv.ts"),
  route("admin/personal-data/export", "routes/resources/admin-personal-data-export.ts"),
  route("admin/journal/export.csv", "routes/resources/admin-journal-export[.]csv.ts"),
  route("admin/contacts/:id/devis.pdf", "routes/resources/admin-contact-quote[.]pdf.ts"),
  route("offers/:slug/devis.pdf", "routes/resources/offer-quote[.]pdf.ts"),
  route("devis/:token/pdf", "routes/resources/sent-quote-pdf.ts"),
  // The LOA file (issue 41): the buyer's signed delivery report, the team's archive of the file.
  route("devis/:token/pv-de-livraison.pdf", "routes/resources/delivery-report-pdf.ts"),
  route("admin/contacts/:id/dossier.zip", "routes/resources/admin-lease-archive[.]zip.ts"),
  route("admin/signed-documents/:id/pdf", "routes/resources/admin-signed-document-pdf.ts"),
  route("admin/contacts/:id/documents/:documentId", "routes/resources/admin-lease-document.ts"),
  // An incoming message's own layout, and its files (issue 40).
  route("admin/messages/:messageId/html", "routes/resources/admin-message-html.ts"),
  route(
    "admin/messages/:messageId/pieces/:attachmentId",
    "routes/resources/admin-message-attachment.ts",
  ),
  // The catalogue as an API and a feed (issue 30).
  route("api/offers", "routes/resources/api-offers.ts"),
  route("api/offers/:slug", "routes/resources/api-offer.ts"),
  route("api/openapi.json", "routes/resources/api-openapi[.]json.ts"),
  route("offers.atom", "routes/resources/offers[.]atom.ts"),

  // Public pages.
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("offers", "routes/public/offers.tsx"),
    route("offers/:slug", "routes/public/offer.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("contact/merci", "routes/public/contact-sent.tsx"),
    route("confidentialite", "routes/public/privacy.tsx"),
    route("mentions-legales", "routes/public/legal-notice.tsx"),
    route("comparer", "routes/public/compare.tsx"),
    // `Me prévenir` (issue 30): the form's post, and the links of its mails.
    route("alertes", "routes/public/alert.tsx"),
    route("alertes/confirmer", "routes/public/alert-confirm.tsx"),
    route("alertes/desinscription", "routes/public/alert-unsubscribe.tsx"),
    // Saved searches (issue 42): the filtered listing's form, and the links of its mails.
    route("recherches", "routes/public/saved-search.tsx"),
    route("recherches/confirmer", "routes/public/saved-search-confirm.tsx"),
    route("recherches/desinscription", "routes/public/saved-search-unsubscribe.tsx"),
    route("devis/:token", "routes/public/quote.tsx"),
    // `Ma demande` (issue 42): the buyer's page of a request by its secret link, and the link asked again.
    route("ma-demande", "routes/public/request-link.tsx"),
    route("ma-demande/:token", "routes/public/buyer-request.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),

  // Administrator area.
  route("auth", "routes/admin/sign-in.tsx"),
  // Mot de passe oublié ? (issue 20): public pages of the sign-in, not the admin area.
  route("auth/mot-de-passe-oublie", "routes/admin/forgot-password.tsx"),
  route("auth/nouveau-mot-de-passe", "routes/admin/reset-password.tsx"),
  route("admin/logout", "routes/admin/logout.tsx"),
  layout("routes/admin/layout.tsx", [
    ...prefix("admin", [
      index("routes/admin/dashboard.tsx"),
      route("offers", "routes/admin/offers.tsx"),
      route("offers/new", "routes/admin/offer-new.tsx"),
      route("offers/:id", "routes/admin/offer-edit.tsx"),
      route("contacts", "routes/admin/contacts.tsx"),
      route("contacts/:id", "routes/admin/contact-request.tsx"),
      route("contacts/:id/envoyer-devis", "routes/admin/contact-quote.tsx"),
      route("relances", "routes/admin/follow-ups.tsx"),
      route("messages", "routes/admin/unattached-messages.tsx"),
      route("modeles", "routes/admin/reply-templates.tsx"),
      route("personal-data", "routes/admin/personal-data.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("webhooks", "routes/admin/webhooks.tsx"),
      route("datacenters", "routes/admin/datacenters.tsx"),
      route("recherche", "routes/admin/search-synonyms.tsx"),
      route("lease", "routes/admin/lease.tsx"),
      route("account", "routes/admin/account.tsx"),
      route("account/2fa", "routes/admin/two-factor.tsx"),
      route("confirm", "routes/admin/confirm-identity.tsx"),
      route("journal", "routes/admin/journal.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
