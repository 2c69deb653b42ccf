import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { clientScripts } from "./scripts/vite-client-scripts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), clientScripts()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  // lucide-react's entry loads every icon (about 40 MB of server memory when imported at run time):
  // bundled, the server build keeps only the icons used.
  ssr: { noExternal: ["lucide-react"] },
  server: { watch: { ignored: ["**/data/**", "**/test-results/**", "**/bench/**"] } },
});
