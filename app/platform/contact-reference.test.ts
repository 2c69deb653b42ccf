import { describe, expect, it } from "vitest";
import { contactReference, parseContactReference } from "./contact-reference";

describe("contactReference", () => {
  it("pads the number to five digits after the year", () => {
    expect(contactReference(42, new Date("2026-03-01T10:00:00Z"))).toBe("DEM-2026-00042");
    expect(contactReference(123456, "2026-03-01T10:00:00Z")).toBe("DEM-2026-123456");
  });

  it("takes the year in Paris time", () => {
    expect(contactReference(7, new Date("2026-12-31T23:30:00Z"))).toBe("DEM-2027-00007");
  });
});

describe("parseContactReference", () => {
  it("accepts a reference and nothing else", () => {
    expect(parseContactReference("DEM-2026-00042")).toBe("DEM-2026-00042");
    for (const junk of [null, "", "DEM-2026-42", "<script>", "DEM-2026-00042 ", "dem-2026-00042"]) {
      expect(parseContactReference(junk)).toBeNull();
    }
  });
});
