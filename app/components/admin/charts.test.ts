import { describe, expect, it } from "vitest";
import { bandLayout, formatHours, niceMax, scaled, weekLabel } from "./charts";

describe("chart geometry", () => {
  it("rounds the axis up to 1, 2 or 5 × 10ⁿ", () => {
    expect([0, 1, 3, 7, 10, 11, 180, 501].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 200, 1000]);
    // Exact decimals below 1 (0.00005, not 0.000049999999999999996): the same on server and page.
    expect([0.00004, 0.0013, 0.7].map(niceMax)).toEqual([0.00005, 0.002, 1]);
  });

  it("lays bars out across the width with gaps", () => {
    expect(bandLayout(2, 80)).toEqual([
      { x: 5, width: 30 },
      { x: 45, width: 30 },
    ]);
    expect(scaled(5, 10, 200)).toBe(100);
    expect(scaled(5, 0, 200)).toBe(0);
  });

  it("labels weeks and durations in French", () => {
    expect(weekLabel("2026-11-23")).toBe("23/11");
    expect(formatHours(null)).toBe("—");
    expect(formatHours(0.5)).toBe("30 min");
    expect(formatHours(3 + 1 / 3)).toBe("3 h 20");
    expect(formatHours(50)).toBe("2 j 2 h");
  });
});
