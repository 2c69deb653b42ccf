import { describe, expect, it } from "vitest";
import { pageHydrates } from "./hydration";

describe("pageHydrates", () => {
  it("hydrates unless a route opts out", () => {
    expect(pageHydrates([undefined, {}, { scripts: [] }])).toBe(true);
    expect(pageHydrates([undefined, { hydrate: false }])).toBe(false);
    expect(pageHydrates([{ hydrate: true }, { hydrate: false }])).toBe(false);
  });
});
