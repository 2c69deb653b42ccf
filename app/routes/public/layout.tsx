import { Outlet } from "react-router";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { visitSource } from "~/features/attribution/attribution.server";
import type { Route } from "./+types/layout";

/**
 * Where the visit came from (issue 42): the links and forms of the page carry it as `src`
 * (useVisitSource), so that the request sent at the end of the visit knows it, without a cookie.
 */
export function loader({ request }: Route.LoaderArgs) {
  return { src: visitSource(request) };
}

export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenu"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2"
      >
        Aller au contenu
      </a>
      <SiteHeader />
      <main id="contenu" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
