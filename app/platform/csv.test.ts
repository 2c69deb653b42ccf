import { describe, expect, it } from "vitest";
import { csvCell, csvLine, parisDay, spreadsheetDateTime } from "./csv";

describe("csv", () => {
  it("leaves plain text as it is", () => {
    expect(csvCell("Alice Martin")).toBe("Alice Martin");
    expect(csvCell(null)).toBe("");
    expect(csvCell("06 12 34 56 78")).toBe("06 12 34 56 78");
  });

  it("quotes separators, quotes and line breaks", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('il a dit "oui"')).toBe('"il a dit ""oui"""');
    expect(csvCell("ligne 1\nligne 2")).toBe('"ligne 1\nligne 2"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  it("neutralises what a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+33 6 12 34 56 78")).toBe("'+33 6 12 34 56 78");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("joins a line with ';' and ends it with CRLF", () => {
    expect(csvLine(["a", null, "b;c"])).toBe('a;;"b;c"\r\n');
  });

  it("writes dates in Europe/Paris", () => {
    // 23:30 UTC on 31 December is already the next year in Paris (UTC+1 in winter).
    expect(spreadsheetDateTime(new Date("2025-12-31T23:30:00Z"))).toBe("01/01/2026 00:30");
    expect(spreadsheetDateTime(new Date("2026-07-14T08:05:00Z"))).toBe("14/07/2026 10:05");
    expect(parisDay(new Date("2025-12-31T23:30:00Z"))).toBe("2026-01-01");
  });
});
