export const ADMIN_HOME = "/admin";

/**
 * Where to go after signing in: only a local path inside the admin area ('/admin', '/admin/...'),
 * never another site ('//evil.example', '/\\evil', 'https://...'); anything else gives '/admin'.
 */
export function safeAdminRedirect(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 500) return ADMIN_HOME;
  if (!value.startsWith("/") || value.startsWith("//") || /[\\\s]/.test(value)) return ADMIN_HOME;
  let url: URL;
  try {
    url = new URL(value, "http://local.invalid");
  } catch {
    return ADMIN_HOME;
  }
  if (url.origin !== "http://local.invalid") return ADMIN_HOME;
  if (url.pathname !== ADMIN_HOME && !url.pathname.startsWith(`${ADMIN_HOME}/`)) return ADMIN_HOME;
  if (url.pathname.includes("..")) return ADMIN_HOME;
  return `${url.pathname}${url.search}`;
}

/** The sign-in address that brings the user back to `path` afterwards. */
export function signInUrl(path?: string): string {
  return `/auth?redirectTo=${encodeURIComponent(safeAdminRedirect(path))}`;
}
