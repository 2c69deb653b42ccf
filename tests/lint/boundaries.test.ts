import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layers and the no-cycle rule of eslint.config.js, run on a small tree under fixtures/ that
// mimics app/ (the real lint ignores it): what breaks the rules must be reported, what keeps them
// must not. The config is the real one; only the plugin's root is moved to the fixture tree.
const repository = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures", import.meta.url));

async function lintFixtures(): Promise<Map<string, string[]>> {
  const eslint = new ESLint({
    cwd: fixtures,
    overrideConfigFile: `${repository}eslint.config.js`,
    overrideConfig: { settings: { "boundaries/root-path": fixtures } },
    ignore: false,
  });
  const results = await eslint.lintFiles(["app/**/*.ts"]);
  const byFile = new Map<string, string[]>();
  for (const result of results) {
    const file = result.filePath.slice(fixtures.length + 1);
    byFile.set(
      file,
      result.messages.map((message) => message.ruleId ?? message.message),
    );
  }
  return byFile;
}

describe("the layers, checked by the linter", () => {
  it("reports lib or platform importing a feature, and two features importing each other", async () => {
    const byFile = await lintFixtures();
    expect([...byFile.keys()].sort()).toEqual([
      "app/features/alpha/alpha.ts",
      "app/features/beta/beta.ts",
      "app/features/gamma/gamma.ts",
      "app/lib/impure.ts",
      "app/lib/pure.ts",
      "app/lib/reaches-up.ts",
      "app/platform/reaches-up.ts",
      "app/routes/page.ts",
    ]);
    expect(byFile.get("app/lib/reaches-up.ts")).toEqual(["boundaries/dependencies"]);
    // What stays in lib is pure: no framework, no database, no server module.
    expect(byFile.get("app/lib/impure.ts")).toEqual(["no-restricted-imports"]);
    expect(byFile.get("app/platform/reaches-up.ts")).toEqual(["boundaries/dependencies"]);
    expect(byFile.get("app/features/alpha/alpha.ts")).toEqual(["import-x/no-cycle"]);
    expect(byFile.get("app/features/beta/beta.ts")).toEqual(["import-x/no-cycle"]);
    // One way is fine: a route uses a feature and lib, a feature uses lib.
    expect(byFile.get("app/routes/page.ts")).toEqual([]);
    expect(byFile.get("app/features/gamma/gamma.ts")).toEqual([]);
    expect(byFile.get("app/lib/pure.ts")).toEqual([]);
  });
});
