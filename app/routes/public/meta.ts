import type { MetaDescriptor } from "react-router";
import type { SiteConfig } from "~/lib/site";
import type { RootData } from "~/hooks/use-root-data";

type AnyMatch = { id: string; loaderData?: unknown } | undefined;

/** The site identity from the root match (meta functions receive every match). */
export function siteFromMatches(matches: AnyMatch[]): SiteConfig | undefined {
  return (matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined)?.site;
}

/** Title, description, canonical link, Open Graph and Twitter card for one public page. */
export function pageMeta(options: {
  matches: AnyMatch[];
  title: string;
  description: string;
  /** Canonical path ('/offers'); omit for pages that must not be indexed. */
  path?: string;
  type?: "website" | "product";
  noindex?: boolean;
}): MetaDescriptor[] {
  const site = siteFromMatches(options.matches);
  const tags: MetaDescriptor[] = [
    { title: options.title },
    { name: "description", content: options.description },
  ];
  if (options.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  if (site && options.path !== undefined) {
    const url = `${site.baseUrl}${options.path}`;
    tags.push(
      { tagName: "link", rel: "canonical", href: url },
      { property: "og:type", content: options.type ?? "website" },
      { property: "og:site_name", content: site.name },
      { property: "og:locale", content: "fr_FR" },
      { property: "og:title", content: options.title },
      { property: "og:description", content: options.description },
      { property: "og:url", content: url },
      { name: "twitter:card", content: "summary" },
      { name: "twitter:title", content: options.title },
      { name: "twitter:description", content: options.description },
    );
  }
  return tags;
}

/** The meta function of a page kept out of indexes (a form's answer, a mailed link's page). */
export function unindexedMeta(title: string, description: string) {
  return ({ matches }: { matches: AnyMatch[] }): MetaDescriptor[] =>
    pageMeta({ matches, title, description, noindex: true });
}
