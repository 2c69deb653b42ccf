import { describe, expect, it } from "vitest";
import { discountedConfiguration, discountLabel } from "./quote";

const configuration = {
  lines: [
    { group: "RAM", value: "64 Go", monthly: 2000, setup: 0 },
    { group: "Disque", value: "2 To", monthly: 1000, setup: 500 },
  ],
  monthly: 13000,
  setup: 500,
  lease: { months: 36, option: 10000, total: 13000 * 36 + 10000 },
};

describe("discountedConfiguration", () => {
  it("takes each row's percent off its monthly amount, and sums again", () => {
    const result = discountedConfiguration(configuration, [10, 50, 0]);
    expect(result.lines.map((l) => l.monthly)).toEqual([1000, 1000]);
    // Base 100.00 less 10 % = 90.00, plus 10.00 and 10.00.
    expect(result.monthly).toBe(11000);
    expect(result.setup).toBe(500);
    expect(result.lease?.total).toBe(11000 * 36 + 10000);
  });

  it("leaves a configuration without discounts as it is", () => {
    expect(discountedConfiguration(configuration, [0, 0])).toBe(configuration);
    expect(discountedConfiguration(configuration, [])).toBe(configuration);
  });

  it("labels a discount the French way", () => {
    expect(discountLabel(12.5)).toBe("remise 12,5 %");
  });
});
