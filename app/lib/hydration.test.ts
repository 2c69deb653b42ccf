import { describe, expect, it } from "vitest";
import { pageHydrates } from "./hydration";

describe("pageHydrates", () => {
  it("hydrates unless a route opts out", () => {
    expect(pageHydrates([undefined, {}, { scripts: [] }], false)).toBe(true);
    expect(pageHydrates([undefined, { hydrate: false }], false)).toBe(false);
    expect(pageHydrates([{ hydrate: true }, { hydrate: false }], false)).toBe(false);
  });

  it("hydrates a page that shows a flash toast even when its route opts out", () => {
    expect(pageHydrates([{ hydrate: false }], true)).toBe(true);
  });
});
