import { build as esbuild } from "esbuild";
import type { Plugin } from "vite";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLIENT_DIR = fileURLToPath(new URL("../app/client", import.meta.url));
const SCRIPT_QUERY = "?script";
const DEV_PREFIX = "/@client-script/";

/**
 * `import src from "~/client/x.ts?script"` gives the URL of a public page's enhancement script
 * (docs/decisions/005): the entry and what it imports bundled into one minified classic script,
 * an external file for CSP 'self', no React. Vite's own options do not fit: `?url` ships the file
 * unbundled, `?worker&url` injects worker-only code in dev, and an extra Rollup entry shares
 * chunks with the React app that these pages never load. Each entry inlines its few shared helpers
 * (a few hundred bytes, against one more request per page). Build: a hashed asset (the same name in
 * the client and server builds, the content being the same). Dev server and Vitest: a URL that the
 * dev server answers by bundling on request. Used by vite.config.ts and vitest.config.ts.
 */
export function clientScripts(): Plugin {
  let target: string | string[] = "es2022";
  let serving = false;
  const bundle = async (entry: string) => {
    const result = await esbuild({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "iife",
      minify: true,
      target,
      legalComments: "none",
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  };
  return {
    name: "client-scripts",
    configResolved(config) {
      serving = config.command === "serve";
      if (config.build.target) target = config.build.target;
    },
    async load(id) {
      if (!id.endsWith(SCRIPT_QUERY)) return;
      const entry = id.slice(0, -SCRIPT_QUERY.length);
      if (path.dirname(entry) !== CLIENT_DIR) throw new Error(`${entry}: not in app/client`);
      const name = path.basename(entry, ".ts");
      if (serving) {
        return `export default ${JSON.stringify(`${DEV_PREFIX}${name}.js`)};`;
      }
      const ref = this.emitFile({ type: "asset", name: `${name}.js`, source: await bundle(entry) });
      // Vite's placeholder for an emitted asset's public URL (base included), as `?url` returns.
      return `export default "__VITE_ASSET__${ref}__";`;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (!req.url?.startsWith(DEV_PREFIX)) return next();
        const name = req.url.slice(DEV_PREFIX.length).replace(/\.js(\?.*)?$/, "");
        if (!/^[a-z-]+$/.test(name) || !readdirSync(CLIENT_DIR).includes(`${name}.ts`)) {
          return next();
        }
        try {
          const code = await bundle(path.join(CLIENT_DIR, `${name}.ts`));
          res.setHeader("Content-Type", "text/javascript; charset=utf-8");
          res.setHeader("Cache-Control", "no-store");
          res.end(code);
        } catch (error) {
          next(error);
        }
      });
    },
  };
}
