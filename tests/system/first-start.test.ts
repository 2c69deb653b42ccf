import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "./harness/ports";
import { startServer } from "./harness/server-process";
import { removeDir, tempDir } from "./support";

/**
 * A newcomer's first start: the built server on an empty data directory, without ADMIN_EMAIL or
 * ADMIN_PASSWORD. What it prints must be enough to sign in, and the password must be printed once.
 */

/** What a person reads on the terminal: the lines naming the e-mail and the password. */
function readCredentials(output: string): { email: string; password: string } {
  const email = /E-mail\s*:\s*(\S+@\S+)/.exec(output)?.[1];
  const password = /Mot de passe\s*:\s*(\S+)/.exec(output)?.[1];
  if (!email || !password || password.includes("redacted")) {
    throw new Error(`no readable administrator credentials in the output:\n${output}`);
  }
  return { email, password };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe("first start without ADMIN_EMAIL/ADMIN_PASSWORD", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it("prints the generated credentials once, readably, and they open the administration", async () => {
    const dataDir = tempDir("first-start");
    dirs.push(dataDir);
    const port = await findFreePort();
    const server = await startServer({ port, dataDir }).ready();
    let restartOutput = "";
    try {
      const { email, password } = readCredentials(server.output);
      expect(email).toBe("admin@example.fr");

      const signIn = await fetch(`${server.base}/auth`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
        body: new URLSearchParams({ email, password }),
        redirect: "manual",
      });
      expect(signIn.status).toBe(302);
      expect(signIn.headers.get("location")).toBe("/admin");
      const cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const admin = await fetch(`${server.base}/admin`, { headers: { Cookie: cookie } });
      expect(admin.status).toBe(200);
      const html = await admin.text();
      expect(html).toContain("Connecté en tant que");
      expect(html).toContain(email);

      // Printed once, outside the JSON log lines; no later line (sign-in included) repeats it.
      expect(occurrences(server.output, password)).toBe(1);
      const jsonLines = server.output.split("\n").filter((l) => l.startsWith("{"));
      expect(jsonLines.some((l) => l.includes(password))).toBe(false);
    } finally {
      await server.stopCleanly();
    }

    // A later start on the same directory prints no password at all.
    const again = await startServer({ port, dataDir }).ready();
    try {
      restartOutput = again.output;
    } finally {
      await again.stopCleanly();
    }
    expect(restartOutput).not.toMatch(/Mot de passe\s*:/);
    expect(restartOutput).toContain("server listening");
  });
});
