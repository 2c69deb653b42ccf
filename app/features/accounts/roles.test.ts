import { describe, expect, it } from "vitest";
import { canOpen, homePath, isRole, ROLES } from "./roles";

describe("roles", () => {
  it("gives the Administrateur everything and the others their part and their account", () => {
    for (const role of ROLES) expect(canOpen(role, "signed-in")).toBe(true);
    expect(canOpen("admin", "admin")).toBe(true);
    expect(canOpen("admin", "offers")).toBe(true);
    expect(canOpen("admin", "contacts")).toBe(true);
    expect(canOpen("sales", "contacts")).toBe(true);
    expect(canOpen("sales", "offers")).toBe(false);
    expect(canOpen("sales", "admin")).toBe(false);
    expect(canOpen("catalogue", "offers")).toBe(true);
    expect(canOpen("catalogue", "contacts")).toBe(false);
    expect(canOpen("catalogue", "admin")).toBe(false);
  });

  it("lands each role on a page it may open", () => {
    expect(homePath("admin")).toBe("/admin");
    expect(homePath("sales")).toBe("/admin/contacts");
    expect(homePath("catalogue")).toBe("/admin/offers");
  });

  it("knows the stored values only", () => {
    expect(isRole("sales")).toBe(true);
    expect(isRole("Commercial")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});
