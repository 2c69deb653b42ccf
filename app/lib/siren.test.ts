import { describe, expect, it } from "vitest";
import { companyLine, compactSiren, formatSiren, isValidSiren, vatNumberOf } from "./siren";

describe("SIREN", () => {
  it("accepts a SIREN whose Luhn key is right, spaces removed", () => {
    expect(isValidSiren(compactSiren("732 829 320"))).toBe(true);
    expect(isValidSiren("552100554")).toBe(true);
    expect(isValidSiren("123456782")).toBe(true);
  });

  it("refuses a wrong key, a wrong length or letters", () => {
    expect(isValidSiren("732829321")).toBe(false);
    expect(isValidSiren("12345678")).toBe(false);
    expect(isValidSiren("1234567820")).toBe(false);
    expect(isValidSiren("12345678a")).toBe(false);
  });

  it("computes the VAT number: FR, the key, the SIREN", () => {
    // Known pairs: FR44732829320 (Google France), FR32123456789 (the site's default, key only).
    expect(vatNumberOf("732829320")).toBe("FR44732829320");
    expect(vatNumberOf("123456789")).toBe("FR32123456789");
    // A key under 10 keeps its two digits.
    const small = Array.from({ length: 1000 }, (_, i) => String(100000000 + i)).find((siren) =>
      vatNumberOf(siren).startsWith("FR0"),
    );
    expect(small && vatNumberOf(small)).toMatch(/^FR0\d\d{9}$/);
  });

  it("reads as three groups", () => {
    expect(formatSiren("732829320")).toBe("732 829 320");
  });
});

describe("companyLine", () => {
  it("joins what is known", () => {
    expect(companyLine("ACME", "732829320")).toBe(
      "ACME — SIREN 732 829 320 — N° TVA FR44732829320",
    );
    expect(companyLine("ACME", null)).toBe("ACME");
    expect(companyLine(null, null)).toBeNull();
  });
});
