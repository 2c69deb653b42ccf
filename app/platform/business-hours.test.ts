import { describe, expect, it } from "vitest";
import {
  addBusinessHours,
  isBusinessDay,
  isPublicHoliday,
  parisInstant,
  parseBusinessHours,
} from "./business-hours";

const hours = { open: 9 * 60, close: 18 * 60 };
const at = (iso: string) => new Date(iso);

describe("business hours in Paris", () => {
  it("knows France's public holidays from the library, movable ones included", () => {
    expect(isPublicHoliday("2026-05-01")).toBe(true);
    expect(isPublicHoliday("2026-05-14")).toBe(true); // Ascension 2026
    expect(isPublicHoliday("2027-05-06")).toBe(true); // Ascension 2027
    expect(isPublicHoliday("2026-05-25")).toBe(true); // Lundi de Pentecôte
    expect(isPublicHoliday("2026-05-24")).toBe(false); // Pentecôte: a Sunday observance
    expect(isPublicHoliday("2026-12-26")).toBe(false); // Alsace-Moselle only
    expect(isBusinessDay("2026-11-27")).toBe(true); // a Friday
    expect(isBusinessDay("2026-11-28")).toBe(false); // a Saturday
  });

  it("places Paris wall-clock times in UTC across the changes of time", () => {
    expect(parisInstant("2026-01-15", 9 * 60).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(parisInstant("2026-07-15", 9 * 60).toISOString()).toBe("2026-07-15T07:00:00.000Z");
    // The days the clocks change (29 March and 25 October 2026).
    expect(parisInstant("2026-03-29", 9 * 60).toISOString()).toBe("2026-03-29T07:00:00.000Z");
    expect(parisInstant("2026-10-25", 9 * 60).toISOString()).toBe("2026-10-25T08:00:00.000Z");
  });

  it("counts only working hours", () => {
    // Tuesday 10:00 Paris + 4 h = 14:00 the same day.
    expect(addBusinessHours(at("2026-11-24T09:00:00Z"), 4, hours).toISOString()).toBe(
      "2026-11-24T13:00:00.000Z",
    );
    // Friday 16:00 + 4 h: 2 h on Friday, 2 h on Monday from 9:00 → Monday 11:00.
    expect(addBusinessHours(at("2026-11-27T15:00:00Z"), 4, hours).toISOString()).toBe(
      "2026-11-30T10:00:00.000Z",
    );
    // Saturday night: the count starts Monday 9:00.
    expect(addBusinessHours(at("2026-11-28T22:00:00Z"), 1, hours).toISOString()).toBe(
      "2026-11-30T09:00:00.000Z",
    );
    // Wednesday 13 May 2026 at 17:00 + 4 h: Thursday is Ascension, so 1 h Wednesday, 3 h Friday.
    expect(addBusinessHours(at("2026-05-13T15:00:00Z"), 4, hours).toISOString()).toBe(
      "2026-05-15T10:00:00.000Z",
    );
    // Christmas Eve 2026 (Thursday) 17:00 + 2 h: Friday 25 is Noël, then the weekend → Monday 10:00.
    expect(addBusinessHours(at("2026-12-24T16:00:00Z"), 2, hours).toISOString()).toBe(
      "2026-12-28T09:00:00.000Z",
    );
  });

  it("reads the hours setting", () => {
    expect(parseBusinessHours("09:00-18:00")).toEqual(hours);
    expect(parseBusinessHours("08:30-12:00")).toEqual({ open: 510, close: 720 });
    expect(parseBusinessHours("18:00-09:00")).toBeUndefined();
    expect(parseBusinessHours("9-18")).toBeUndefined();
    expect(parseBusinessHours("09:75-18:00")).toBeUndefined();
  });
});
