import { describe, expect, it } from "vitest";
import {
  cleanAttributionValue,
  encodeAttribution,
  NO_ATTRIBUTION,
  originLine,
  referrerHost,
  splitAttribution,
  withSource,
} from "./attribution";

describe("a visit's origin in addresses (issue 42)", () => {
  it("writes and reads src, empty trailing fields left out", () => {
    const origin = { ...NO_ATTRIBUTION, source: "newsletter", campaign: "novembre" };
    expect(encodeAttribution(origin)).toBe("newsletter~~novembre");
    expect(splitAttribution("newsletter~~novembre")).toEqual(origin);
    expect(encodeAttribution(NO_ATTRIBUTION)).toBe("");
    expect(encodeAttribution(null)).toBe("");
  });

  it("cleans values: control characters and the separator out, capped at 100", () => {
    expect(cleanAttributionValue(" a~b\u0000c ")).toBe("a b c");
    expect(cleanAttributionValue("x".repeat(300))).toHaveLength(100);
    expect(cleanAttributionValue("  ")).toBeNull();
  });

  it("adds src to the site's own links only, keeping their query and fragment", () => {
    expect(withSource("/offers", "a~b")).toBe("/offers?src=a~b");
    expect(withSource("/contact?offer=3#form", "a")).toBe("/contact?offer=3&src=a#form");
    expect(withSource("/comparer?offres=a,b", "a")).toBe("/comparer?offres=a,b&src=a");
    expect(withSource("/offers", null)).toBe("/offers");
    expect(withSource("https://other.example/", "a")).toBe("https://other.example/");
    expect(withSource("//other.example/", "a")).toBe("//other.example/");
  });

  it("names the referring site only when it is another one", () => {
    const own = ["www.example.fr:3000"];
    expect(referrerHost("https://www.google.com/search?q=x", own)).toBe("www.google.com");
    expect(referrerHost("https://example.fr/offers", own)).toBeNull();
    expect(referrerHost("android-app://com.google", own)).toBeNull();
    expect(referrerHost("pas une adresse", own)).toBeNull();
    expect(referrerHost(undefined, own)).toBeNull();
  });

  it("says an origin in one line for the desk", () => {
    expect(originLine({ source: "newsletter", medium: "email", campaign: "novembre" })).toBe(
      "newsletter / email — campagne novembre",
    );
    expect(originLine({ referrer: "www.google.com" })).toBe("depuis www.google.com");
    expect(originLine(NO_ATTRIBUTION)).toBeNull();
  });
});
