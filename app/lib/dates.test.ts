import { describe, expect, it } from "vitest";
import { formatDateTime, parisDay, parisYear, spreadsheetDateTime } from "./dates";

// Vitest runs with TZ=America/New_York: every figure below is Paris time, not the machine's.
describe("Paris dates", () => {
  const newYear = new Date("2025-12-31T23:30:00Z"); // 00:30 on 1 January 2026 in Paris

  it("formats a date and time for reading", () => {
    expect(formatDateTime(newYear)).toBe("1 janv. 2026 à 00:30");
    expect(formatDateTime("2026-07-14T12:05:00Z")).toBe("14 juil. 2026 à 14:05");
  });

  it("formats for spreadsheets and file names, zero-padded", () => {
    expect(spreadsheetDateTime(newYear)).toBe("01/01/2026 00:30");
    expect(parisDay(newYear)).toBe("2026-01-01");
  });

  it("gives the year in Paris", () => {
    expect(parisYear(newYear)).toBe("2026");
  });
});
