import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import boundaries from "eslint-plugin-boundaries";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of the design's layout (docs/patterns.md, Layers), one way: routes → features →
// platform → lib, with the site's components beside the features. An import the table below does
// not allow is an error.
const LAYERS = {
  routes: ["routes", "features", "platform", "lib", "components"],
  features: ["features", "platform", "lib", "components"],
  platform: ["platform", "lib"],
  components: ["components", "lib"],
  lib: ["lib"],
};

const layers = [
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { boundaries, "import-x": importX },
    settings: {
      // Both plugins resolve `~/…` through tsconfig.json's paths.
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      // Without these, import-x reads no TypeScript module and no-cycle sees no circle.
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "boundaries/elements": [
        { type: "routes", pattern: "app/routes", partialMatch: false },
        { type: "features", pattern: "app/features/*", capture: ["feature"], partialMatch: false },
        { type: "platform", pattern: "app/platform", partialMatch: false },
        { type: "lib", pattern: "app/lib", partialMatch: false },
        { type: "components", pattern: "app/components", partialMatch: false },
      ],
      // The route table and the document beside app/routes/ are of the routes' layer too (element
      // patterns name folders, these are files).
      "boundaries/files": [
        {
          category: "routes",
          pattern: [
            "app/routes.ts",
            "app/root.tsx",
            "app/entry.server.tsx",
            "app/mail-kinds.server.ts",
          ],
        },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: [
            ...Object.entries(LAYERS).map(([from, to]) => ({
              from: { element: { type: from } },
              allow: { to: { element: { types: { anyOf: to } } } },
            })),
            {
              from: { file: { categories: "routes" } },
              allow: { to: { element: { types: { anyOf: LAYERS.routes } } } },
            },
            {
              from: [{ element: { type: "routes" } }, { file: { categories: "routes" } }],
              allow: { to: { file: { categories: "routes" } } },
            },
            {
              from: { element: { types: { noneOf: ["routes"] } } },
              disallow: { to: { file: { categories: "routes" } } },
            },
          ],
        },
      ],
    },
  },
  {
    // What is left in lib is pure code several features share: no React, no framework, no database,
    // no Node built-ins and no server module (a feature's or the platform's code goes there).
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "react",
                "react-dom",
                "react-router",
                "@react-router/*",
                "drizzle-orm",
                "drizzle-orm/*",
              ],
              message: "app/lib/ holds pure code: no React, no framework, no database.",
            },
            {
              group: ["node:*", "*.server", "**/*.server"],
              message: "app/lib/ runs in the browser too.",
            },
          ],
        },
      ],
    },
  },
  {
    // A feature may use another, never in a circle (tests/lint/boundaries.test.ts shows both rules
    // firing on a small bad tree).
    files: ["app/features/**/*.{ts,tsx}"],
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "data/",
      "drizzle/",
      "bench/results/",
      // Bad code on purpose, linted with this config by tests/lint/boundaries.test.ts.
      "tests/lint/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  ...layers,
  // No React under tests/: useTestDatabase() registers vitest hooks.
  { files: ["tests/**/*.ts"], rules: { "react-hooks/rules-of-hooks": "off" } },
);
