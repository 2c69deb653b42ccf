import { currentSitemapXml } from "~/features/offers/sitemap.server";

export async function loader() {
  return new Response(await currentSitemapXml(), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
