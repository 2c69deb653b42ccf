import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// No hand-written module over 450 lines (issue 43), the bench and the tests included: a module
// that grows past it is split along a seam of its own (a topic, a mode, a table of cases).
// Generated migrations live in drizzle/, outside the folders read here.
const LIMIT = 450;
const FOLDERS = ["app", "http-server", "scripts", "tests"];
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const SKIPPED = new Set(["node_modules", "build", ".react-router"]);

/** Modules allowed past the limit, each with its reason: data only, never code. */
const EXCEPTIONS: Record<string, string> = {};

const repository = fileURLToPath(new URL("../..", import.meta.url));

function modules(folder: string): string[] {
  return readdirSync(path.join(repository, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : modules(relative);
    return SOURCE.test(entry.name) ? [relative] : [];
  });
}

const lineCount = (file: string) =>
  readFileSync(path.join(repository, file), "utf8").replace(/\n$/, "").split("\n").length;

describe(`modules of at most ${LIMIT} lines`, () => {
  const files = FOLDERS.flatMap(modules);

  it("holds for every hand-written module but the listed data", () => {
    const over = files
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ file, lines }) => lines > LIMIT && !(file in EXCEPTIONS))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it("lists as exceptions only modules that exist and are over the limit", () => {
    const stale = Object.keys(EXCEPTIONS).filter(
      (file) => !files.includes(file) || lineCount(file) <= LIMIT,
    );
    expect(stale).toEqual([]);
  });
});
