import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// Spec section 2. /offres is redirected to /offers by the HTTP server (server/http.ts).
export default [
  // Resource routes for crawlers (app/server/sitemap.server.ts).
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  // The contact form's offer search (JSON), outside the site layout.
  route("contact/offers", "routes/contact-offers.ts"),
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),
    route("offers", "routes/offers.tsx"),
    route("offers/:slug", "routes/offer.tsx"),
    route("contact", "routes/contact.tsx"),
    route("confidentialite", "routes/privacy.tsx"),
    route("comparer", "routes/compare.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  // Administrator area (issue 4): every loader and action starts with requireAdmin().
  route("auth", "routes/auth.tsx"),
  route("admin/logout", "routes/admin-logout.tsx"),
  route("admin/contacts/export.csv", "routes/admin/contacts-export[.]csv.ts"),
  layout("routes/admin-layout.tsx", [
    route("admin", "routes/admin.tsx"),
    route("admin/offers", "routes/admin-offers.tsx"),
    route("admin/offers/new", "routes/admin/offer-new.tsx"),
    route("admin/offers/:id", "routes/admin/offer-edit.tsx"),
    route("admin/contacts", "routes/admin-contacts.tsx"),
    route("admin/contacts/:id", "routes/admin/contact-request.tsx"),
    route("admin/personal-data", "routes/admin/personal-data.tsx"),
    route("admin/users", "routes/admin/users.tsx"),
    route("admin/account", "routes/admin/account.tsx"),
  ]),
  // Personal data of one address as a JSON file (a resource route: no layout).
  route("admin/personal-data/export", "routes/admin/personal-data-export.ts"),
] satisfies RouteConfig;
