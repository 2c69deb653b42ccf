import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";
import { fillPath, isAdminPath, joinPath } from "./route-table";

// The admin routes as app/routes.ts declares them, so that a route added there is called by the
// guard and role tests without anyone remembering to list it.

export type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
};

export type AdminRoute = {
  /** The module's file as app/routes.ts names it, e.g. `routes/admin/users.tsx`. */
  file: string;
  /** The URL pattern, e.g. `/admin/offers/:id` (a layout: its first child's prefix). */
  path: string;
  module: RouteModule;
};

const modules = import.meta.glob<RouteModule>("../../app/routes/**/*.{ts,tsx}", { eager: true });

function walk(entries: RouteConfigEntry[], base: string, found: AdminRoute[]) {
  for (const entry of entries) {
    const path = joinPath(base, entry.path);
    const isAdmin = isAdminPath(path);
    // A pathless layout of the admin area (routes/admin/layout.tsx) guards its own loader too.
    const isAdminLayout = !entry.path && entry.file.startsWith("routes/admin/") && !entry.index;
    if (isAdmin || isAdminLayout) {
      const module = modules[`../../app/${entry.file}`];
      if (!module) throw new Error(`route module not found: ${entry.file}`);
      found.push({ file: entry.file, path: isAdminLayout ? "/admin" : path, module });
    }
    if (entry.children) walk(entry.children, path, found);
  }
}

/** Every route of the admin area (path under /admin, or an admin layout), in table order. */
export function adminRoutes(): AdminRoute[] {
  const found: AdminRoute[] = [];
  walk(routes, "", found);
  return found;
}

export { fillPath };
