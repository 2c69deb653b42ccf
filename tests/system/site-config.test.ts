import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "./harness/ports";
import { startServer } from "./harness/server-process";
import { removeDir, tempDir } from "./support";

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
    const server = startServer({
      port: await findFreePort(),
      dataDir,
      env: {
        SITE_URL: undefined,
        ADMIN_EMAIL: "admin@example.fr",
        ADMIN_PASSWORD: "site config password",
        BASE_URL: "https://ancien.example.fr",
        SITE_HARDWARE_TEXT: "Processeurs récents et réseau 10 Gbit/s.",
        SITE_LOA_POINTS: "Loyers fixes ; Maintenance incluse",
        SITE_HOURS: "Du lundi au vendredi, de 9h à 18h.",
        SITE_LEGAL_URL: "https://groupe.example.org/mentions-legales",
      },
    });
    cleanups.push(() => server.child.kill("SIGKILL"));
    await server.ready();
    const base = server.base;

    expect(server.output).toContain("BASE_URL is deprecated");
    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain('<link rel="canonical" href="https://ancien.example.fr/"');
    expect(home).toContain("Processeurs récents et réseau 10 Gbit/s.");
    expect(home).toContain("Loyers fixes");
    expect(home).toContain("Maintenance incluse");
    // SITE_LEGAL_URL set: the footer links there instead of the site's own page.
    expect(home).toMatch(
      /<a href="https:\/\/groupe\.example\.org\/mentions-legales" target="_blank" rel="noopener noreferrer"[^>]*>Mentions légales<\/a>/,
    );
    expect(home).not.toContain('href="/mentions-legales"');
    const contact = await (await fetch(`${base}/contact`)).text();
    expect(contact).toContain("Du lundi au vendredi, de 9h à 18h.");
  });
});
