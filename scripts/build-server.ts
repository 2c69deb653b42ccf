// Compiles the Express entry (http-server/main.ts and the app modules it imports outside the React Router
// build) to one JavaScript file, so that production runs plain `node build/server/main.js`, without
// a TypeScript loader in the process. Runs after `react-router build` (which empties build/server).
import { build } from "esbuild";

await build({
  entryPoints: ["http-server/main.ts"],
  outfile: "build/server/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // npm packages stay imports resolved from node_modules at run time, as with the React Router build.
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
