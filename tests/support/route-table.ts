import { readFileSync } from "node:fs";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";

// The routes of app/routes.ts read without loading their modules (the system suites run the built
// server beside them): which address each module serves and whether it exports an action.

/** A route of app/routes.ts: its module's file as the table names it and its URL pattern. */
export type RouteEntry = { file: string; path: string };

export function joinPath(base: string, path: string | undefined): string {
  if (!path) return base || "/";
  return `${base.replace(/\/$/, "")}/${path}`;
}

export const isAdminPath = (path: string) => path === "/admin" || path.startsWith("/admin/");

/** Whether a route module's source exports `action` (as the guard test checks on the modules). */
export function exportsAction(file: string): boolean {
  const source = readFileSync(`app/${file}`, "utf8");
  return /export (async )?function action\b|export const action\b/.test(source);
}

/** Every route of app/routes.ts whose module exports an action, in table order. */
export function routesWithAnAction(entries: RouteConfigEntry[] = routes, base = ""): RouteEntry[] {
  return entries.flatMap((entry) => {
    const path = joinPath(base, entry.path);
    const own = exportsAction(entry.file) ? [{ file: entry.file, path }] : [];
    return [...own, ...routesWithAnAction(entry.children ?? [], path)];
  });
}

/** The admin actions: every route under /admin whose module exports an action. */
export const adminActionRoutes = () => routesWithAnAction().filter((r) => isAdminPath(r.path));

/** The URL of `route` with each `:param` replaced from `values` (an unknown param throws). */
export function fillPath(route: { path: string }, values: Record<string, string>) {
  const params: Record<string, string> = {};
  const url = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[`${route.path}:${name}`] ?? values[name];
    if (value === undefined) throw new Error(`no test value for ${route.path} :${name}`);
    params[name] = value;
    return value;
  });
  return { url, params };
}
