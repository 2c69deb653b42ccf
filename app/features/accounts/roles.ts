// Who may open what in the admin area (issue 20). The server enforces it (requireAdmin's area);
// the navigation only hides what the role cannot open.

export const ROLES = ["admin", "sales", "catalogue"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Administrateur",
  sales: "Commercial",
  catalogue: "Catalogue",
};

/**
 * The parts of the admin area, by the roles that open them. `admin` is everything only the
 * Administrateur has (users, personal data, exports, journal, mail retries); `signed-in` is what
 * every account has (its own account page, the layout, signing out).
 */
export const AREA_ROLES = {
  admin: ["admin"],
  contacts: ["admin", "sales"],
  offers: ["admin", "catalogue"],
  "signed-in": ROLES,
} as const satisfies Record<string, readonly Role[]>;

export type AdminArea = keyof typeof AREA_ROLES;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function canOpen(role: Role, area: AdminArea): boolean {
  return (AREA_ROLES[area] as readonly Role[]).includes(role);
}

/** Where an account lands in the admin area: the dashboard is the Administrateur's. */
export function homePath(role: Role): string {
  if (role === "sales") return "/admin/contacts";
  if (role === "catalogue") return "/admin/offers";
  return "/admin";
}
