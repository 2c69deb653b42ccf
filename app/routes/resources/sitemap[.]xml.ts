import { sitemapResponse } from "~/server/sitemap.server";

export function loader() {
  return sitemapResponse();
}
