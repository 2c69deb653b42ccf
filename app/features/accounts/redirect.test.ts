import { describe, expect, it } from "vitest";
import { safeAdminRedirect, signInUrl } from "./redirect";

describe("safeAdminRedirect", () => {
  it.each([
    ["/admin", "/admin"],
    ["/admin/offers", "/admin/offers"],
    ["/admin/contacts?status=pending", "/admin/contacts?status=pending"],
    ["/admin/offers?edit=3", "/admin/offers?edit=3"],
  ])("keeps the local admin path %s", (input, expected) => {
    expect(safeAdminRedirect(input)).toBe(expected);
  });

  it.each([
    undefined,
    null,
    "",
    "admin",
    "/",
    "/offers",
    "/administrator",
    "//evil.example/admin",
    "/\\evil.example",
    "https://evil.example/admin",
    "javascript:alert(1)",
    "/admin/../offers",
    "/admin/%2e%2e/x",
    "/ admin",
    `/admin/${"x".repeat(600)}`,
  ])("falls back to /admin for %s", (input) => {
    expect(safeAdminRedirect(input)).toBe("/admin");
  });
});

describe("signInUrl", () => {
  it("remembers where the user came from", () => {
    expect(signInUrl("/admin/offers?edit=1")).toBe("/auth?redirectTo=%2Fadmin%2Foffers%3Fedit%3D1");
    expect(signInUrl()).toBe("/auth?redirectTo=%2Fadmin");
  });
});
