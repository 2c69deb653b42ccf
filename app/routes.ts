import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// Spec section 2. /offres is redirected to /offers by the HTTP server (server/http.ts).
export default [
  // Resource routes for crawlers (app/server/sitemap.server.ts).
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),
    route("offers", "routes/offers.tsx"),
    route("offers/:slug", "routes/offer.tsx"),
    route("contact", "routes/contact.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
