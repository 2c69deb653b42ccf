import { robotsTxt } from "~/features/offers/sitemap.server";
import { siteConfig } from "~/platform/site.server";

export function loader() {
  return new Response(robotsTxt(siteConfig().baseUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
