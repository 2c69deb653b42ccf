import { describe, expect, it } from "vitest";
import { cacheControl, retryAfter } from "./http-headers";

describe("cacheControl", () => {
  it("writes each policy", () => {
    expect(cacheControl("no-store")).toEqual({ "Cache-Control": "no-store" });
    expect(cacheControl("private")).toEqual({ "Cache-Control": "private, no-store" });
    expect(cacheControl("private-revalidate")).toEqual({ "Cache-Control": "private, no-cache" });
    expect(cacheControl({ privateMaxAge: 3600 })).toEqual({
      "Cache-Control": "private, max-age=3600",
    });
    expect(cacheControl({ maxAge: 30, sMaxAge: 30 })).toEqual({
      "Cache-Control": "public, max-age=30, s-maxage=30",
    });
    expect(cacheControl({ maxAge: 0, sMaxAge: 60, staleWhileRevalidate: 600 })).toEqual({
      "Cache-Control": "public, max-age=0, s-maxage=60, stale-while-revalidate=600",
    });
  });
});

describe("retryAfter", () => {
  it("gives the delay in whole seconds", () => {
    expect(retryAfter(10)).toEqual({ "Retry-After": "10" });
    expect(retryAfter(3600)).toEqual({ "Retry-After": "3600" });
  });
});
