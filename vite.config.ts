import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // Scripts stay files (CSP 'self'), never data: URLs.
    assetsInlineLimit: (file) => (file.endsWith(".js") ? false : undefined),
  },
  // lucide-react's entry loads every icon (about 40 MB of server memory when imported at run time):
  // bundled, the server build keeps only the icons used.
  ssr: { noExternal: ["lucide-react"] },
  server: { watch: { ignored: ["**/data/**", "**/test-results/**", "**/bench/**"] } },
});
