import { robotsTxt } from "~/server/sitemap.server";
import { siteConfig } from "~/server/site.server";

export function loader() {
  return new Response(robotsTxt(siteConfig().baseUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
