import { describe, expect, it } from "vitest";
import { formatDateTime, offerCountLabel } from "./format";

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
