import { Menu, Moon, Server, Sun, X } from "lucide-react";
import { useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import { withSource } from "~/lib/attribution";
import * as dom from "~/lib/dom-hooks";
import { cn } from "~/components/ui/cn";

export const NAV_LINKS = [
  { to: "/", label: "Accueil" },
  { to: "/offers", label: "Nos Offres" },
  { to: "/contact", label: "Contact" },
] as const;

type NavPath = (typeof NAV_LINKS)[number]["to"];

/** The link of the section `pathname` is in, as React Router's NavLink decides it. */
function activeLink(pathname: string): NavPath | undefined {
  const path = pathname.toLowerCase();
  return NAV_LINKS.find(({ to }) =>
    to === "/" ? path === "/" : path === to || path.startsWith(`${to}/`),
  )?.to;
}

/** A navigation link: a plain `<a href>` (no public page hydrates). */
function NavItem({
  to,
  active,
  src,
  className,
  children,
}: {
  to: NavPath;
  active: NavPath | undefined;
  /** The visit's origin (issue 42), carried by the site's links. */
  src: string | null;
  className: (isActive: boolean) => string;
  children: React.ReactNode;
}) {
  const isActive = to === active;
  return (
    <a
      href={withSource(to, src)}
      className={className(isActive)}
      aria-current={isActive ? "page" : undefined}
    >
      {children}
    </a>
  );
}

const navLinkClass = (isActive: boolean) =>
  cn(
    "text-sm font-medium transition-colors hover:text-primary",
    isActive ? "text-primary" : "text-muted-foreground",
  );

const mobileLinkClass = (isActive: boolean) =>
  cn(
    "block rounded-md px-3 py-3 text-base font-medium hover:bg-accent",
    isActive ? "text-primary" : "text-foreground",
  );

export function ThemeToggle() {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      {...dom.hook(dom.THEME_TOGGLE)}
      aria-label="Basculer entre thème clair et sombre"
      title="Basculer entre thème clair et sombre"
    >
      <Sun className="dark:hidden" aria-hidden="true" />
      <Moon className="hidden dark:block" aria-hidden="true" />
    </Button>
  );
}

export function SiteHeader() {
  const { site } = useRootData();
  const active = activeLink(useLocation().pathname);
  return <SiteHeaderHtml siteName={site.name} active={active} src={useVisitSource()} />;
}

function SiteHeaderHtml({
  siteName,
  active,
  src,
}: {
  siteName: string;
  active: NavPath | undefined;
  src: string | null;
}) {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="container mx-auto flex h-16 items-center justify-between gap-4 px-4">
        <a href={withSource("/", src)} className="flex items-center gap-2 text-lg font-bold">
          <Server className="size-6 text-primary" aria-hidden="true" />
          <span>{siteName}</span>
        </a>
        <nav aria-label="Navigation principale" className="hidden items-center gap-6 md:flex">
          {NAV_LINKS.map((link) => (
            <NavItem key={link.to} to={link.to} active={active} src={src} className={navLinkClass}>
              {link.label}
            </NavItem>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <Button asChild className="hidden md:inline-flex">
            <a href={withSource("/offers", src)}>Découvrir nos serveurs</a>
          </Button>
          <ThemeToggle />
          {/* <details> opens and closes without JavaScript; chrome.ts closes it when a link is followed. */}
          <details {...dom.hook(dom.MOBILE_MENU)} className="group md:hidden">
            <summary
              className="inline-flex size-10 cursor-pointer items-center justify-center rounded-md hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Menu"
            >
              <Menu className="size-5 group-open:hidden" aria-hidden="true" />
              <X className="hidden size-5 group-open:block" aria-hidden="true" />
            </summary>
            <nav
              aria-label="Navigation mobile"
              className="absolute inset-x-0 top-16 border-b bg-background px-4 pb-4 shadow-md"
            >
              <ul className="flex flex-col gap-1 py-2">
                {NAV_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavItem to={link.to} active={active} src={src} className={mobileLinkClass}>
                      {link.label}
                    </NavItem>
                  </li>
                ))}
              </ul>
              <Button asChild className="w-full">
                <a href={withSource("/offers", src)}>Découvrir nos serveurs</a>
              </Button>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
