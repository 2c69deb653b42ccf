import { LogOut, Server } from "lucide-react";
import { isRouteErrorResponse, Link, NavLink, Outlet, useFetcher } from "react-router";
import { ThemeToggle } from "~/components/site-header";
import { Button } from "~/components/ui/button";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { adminMeta } from "~/routes/admin/meta";
import { RequestReference } from "~/hooks/request-id";
import { failureToast, useActionToast } from "~/hooks/use-action-toast";
import { cn } from "~/components/ui/cn";
import { canOpen, homePath, type AdminArea } from "~/features/accounts/roles";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import type { Route } from "./+types/layout";
import { ERROR_MESSAGES } from "~/lib/messages";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Espace Administrateur");

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireAdmin(request, "signed-in", { setup: "any" });
  // Only what the role may open (the routes' guards refuse the rest anyway).
  const nav = ADMIN_NAV.filter((item) => canOpen(user.role, item.area)).map(
    ({ to, label, end }) => ({ to, label, end }),
  );
  return { email: user.email, nav, home: homePath(user.role) };
}

const ADMIN_NAV: { to: string; label: string; end: boolean; area: AdminArea }[] = [
  { to: "/admin", label: "Tableau de bord", end: true, area: "admin" },
  { to: "/admin/offers", label: "Offres", end: false, area: "offers" },
  { to: "/admin/contacts", label: "Demandes", end: false, area: "contacts" },
  { to: "/admin/relances", label: "Mes relances", end: false, area: "contacts" },
  { to: "/admin/modeles", label: "Modèles de réponse", end: false, area: "contacts" },
  { to: "/admin/datacenters", label: "Datacenters", end: false, area: "offers" },
  { to: "/admin/recherche", label: "Synonymes", end: false, area: "offers" },
  { to: "/admin/lease", label: "Barème LOA", end: false, area: "offers" },
  { to: "/admin/personal-data", label: "Données personnelles", end: false, area: "admin" },
  { to: "/admin/users", label: "Administrateurs", end: false, area: "admin" },
  { to: "/admin/webhooks", label: "Webhooks", end: false, area: "admin" },
  { to: "/admin/journal", label: "Journal", end: false, area: "admin" },
  { to: "/admin/account", label: "Mon compte", end: false, area: "signed-in" },
];

type NavItem = { to: string; label: string; end: boolean };

function SignOutButton() {
  const fetcher = useFetcher<{ error?: string }>();
  useActionToast(fetcher.data, failureToast, fetcher.state);
  return (
    <fetcher.Form method="post" action="/admin/logout">
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
        <LogOut aria-hidden="true" /> Déconnexion
      </Button>
    </fetcher.Form>
  );
}

function AdminHeader({ email, nav, home }: { email: string; nav: NavItem[]; home: string }) {
  return (
    <header className="border-b bg-background">
      <div className="container mx-auto flex flex-wrap items-center justify-between gap-4 px-4 py-3">
        <div className="flex flex-wrap items-center gap-6">
          <Link to={home} className="flex items-center gap-2 font-bold">
            <Server className="size-5 text-primary" aria-hidden="true" />
            Administration
          </Link>
          <nav
            aria-label="Navigation de l'administration"
            className="flex flex-wrap gap-x-4 gap-y-1"
          >
            {nav.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  cn(
                    "text-sm font-medium hover:text-primary",
                    isActive ? "text-primary" : "text-muted-foreground",
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted-foreground">
            Connecté en tant que <span className="font-medium text-foreground">{email}</span>
          </p>
          <ThemeToggle />
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex min-h-screen flex-col bg-muted/30">
      <a
        href="#contenu"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2"
      >
        Aller au contenu
      </a>
      <AdminHeader email={loaderData.email} nav={loaderData.nav} home={loaderData.home} />
      <main id="contenu" className="container mx-auto flex-1 px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}

/** A 404 thrown by an admin loader may say what is missing ({ message }). */
function notFoundMessage(error: unknown): string {
  const body = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | null) : null;
  return typeof body?.message === "string" ? body.message : ERROR_MESSAGES.admin.notFound.detail;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const copy = ERROR_MESSAGES.admin;
  const [title, detail] =
    status === 401
      ? [copy.sessionExpired, ADMIN_MESSAGES.unauthorized]
      : status === 403
        ? [copy.forbidden, ADMIN_MESSAGES.forbidden]
        : status === 404
          ? [copy.notFound.title, notFoundMessage(error)]
          : status === 503
            ? [ERROR_MESSAGES.unavailable.title, ERROR_MESSAGES.unavailable.detail]
            : [ERROR_MESSAGES.unexpected.title, copy.unexpectedDetail];
  return (
    <main className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{detail}</p>
      {status >= 500 ? <RequestReference /> : null}
      <Button asChild>
        <Link to={status === 401 ? "/auth" : "/admin"} reloadDocument>
          {status === 401 ? "Se connecter" : "Retour à l'administration"}
        </Link>
      </Button>
    </main>
  );
}
