import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;

/**
 * The names the code passes to countRefusal(): its string literals (a name is fixed in the code),
 * but those compared with (`kind === "busy" ? "quote-pdf-busy" : "quote-pdf"`).
 */
function namesInCode(): string[] {
  const names = new Set<string>();
  const files = ["app", "http-server"].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => join(root, dir, file)),
  );
  for (const file of files) {
    for (const call of readFileSync(file, "utf8").matchAll(/countRefusal\(([^)]*)\)/g)) {
      for (const [, compared, name] of call[1].matchAll(/(==\s*)?"([^"]+)"/g)) {
        if (!compared) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/** The `limit` column of docs/reliability.md's "Limits that apply". */
function namesInDocs(): string[] {
  const text = readFileSync(join(root, "docs/reliability.md"), "utf8");
  const section = text.slice(text.indexOf("## Limits that apply"));
  const rows = section.slice(0, section.indexOf("\n\n", section.indexOf("| What"))).split("\n");
  const header = rows.find((row) => row.startsWith("| What"))?.split("|") ?? [];
  const column = header.findIndex((cell) => cell.trim() === "`limit` label");
  const names = new Set<string>();
  for (const row of rows.filter((r) => r.startsWith("|") && !r.startsWith("| What"))) {
    for (const name of (row.split("|")[column] ?? "").matchAll(/`([^`]+)`/g)) names.add(name[1]);
  }
  return [...names].sort();
}

describe("countRefusal's limit names", () => {
  it("are the limit column of docs/reliability.md's table, no more, no fewer", () => {
    const inCode = namesInCode();
    expect(inCode.length).toBeGreaterThan(5);
    expect(namesInDocs()).toEqual(inCode);
  });
});
