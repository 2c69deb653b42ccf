import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "./harness/ports";
import { removeDir, ROOT, sleep, tempDir } from "./support";

/**
 * The site configuration as an operator sets it: the old BASE_URL still names the public address
 * for one release (with a warning), and the commercial statements beyond the spec come from the
 * environment.
 */
describe("site configuration (built server)", () => {
  const cleanups: (() => void)[] = [];
  afterAll(() => cleanups.reverse().forEach((cleanup) => cleanup()));

  it("reads BASE_URL when SITE_URL is unset, with a warning, and shows the configured claims", async () => {
    const dataDir = tempDir("site-config");
    cleanups.push(() => removeDir(dataDir));
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["build/server/main.js"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_EMAIL: "admin@example.fr",
        ADMIN_PASSWORD: "site config password",
        BASE_URL: "https://ancien.example.fr",
        SITE_HARDWARE_TEXT: "Processeurs récents et réseau 10 Gbit/s.",
        SITE_LOA_POINTS: "Loyers fixes ; Maintenance incluse",
        SITE_HOURS: "Du lundi au vendredi, de 9h à 18h.",
      },
    });
    cleanups.push(() => child.kill("SIGKILL"));
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b.toString()));
    child.stderr.on("data", (b: Buffer) => (output += b.toString()));
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }

    expect(output).toContain("BASE_URL is deprecated");
    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain('<link rel="canonical" href="https://ancien.example.fr/"');
    expect(home).toContain("Processeurs récents et réseau 10 Gbit/s.");
    expect(home).toContain("Loyers fixes");
    expect(home).toContain("Maintenance incluse");
    const contact = await (await fetch(`${base}/contact`)).text();
    expect(contact).toContain("Du lundi au vendredi, de 9h à 18h.");
  });
});
