import { describe, expect, it } from "vitest";
import { formatDateTime, formatPrice, offerCountLabel } from "./format";

// fr-FR uses a narrow no-break space (U+202F) before the euro sign and as thousands separator.
const normalize = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

describe("prices", () => {
  it("formats the French way with two decimals", () => {
    expect(normalize(formatPrice("899.99"))).toBe("899,99 €");
    expect(normalize(formatPrice(49))).toBe("49,00 €");
    expect(normalize(formatPrice("1299.5"))).toBe("1 299,50 €");
  });
  it("adds the monthly suffix", () => {});
});

describe("dates", () => {
  it("formats in Europe/Paris, winter time", () => {
    expect(formatDateTime(new Date("2026-01-05T13:03:00Z"))).toBe("5 janv. 2026 à 14:03");
  });
  it("formats in Europe/Paris, summer time, across midnight", () => {
    expect(formatDateTime("2026-07-14T22:30:00Z")).toBe("15 juil. 2026 à 00:30");
  });
});

describe("offerCountLabel", () => {
  it("pluralises above one", () => {
    expect(offerCountLabel(0)).toBe("0 offre trouvée");
    expect(offerCountLabel(1)).toBe("1 offre trouvée");
    expect(offerCountLabel(2)).toBe("2 offres trouvées");
  });
});
