import { afterAll, beforeAll } from "vitest";
import { lateBound } from "../../support/late-bound";
import { startTestSmtpServer, type TestSmtpServer } from "../../support/smtp";
import { removeDir, tempDir } from "../support";
import { findFreePort } from "./ports";
import { type ServerProcess, startServer } from "./server-process";

export type ServerSetup = {
  /** Names its data directory (test-results/system/<label>-…). */
  label: string;
  /** The first administrator (ADMIN_EMAIL, ADMIN_PASSWORD). */
  admin?: { email: string; password: string };
  env?: Record<string, string>;
};

/** The team's address and the sender of the mails that useServerWithMail's server sends. */
export const MAIL_ENV = {
  NOTIFY_EMAIL: "ventes@example.fr",
  MAIL_FROM: "ServeurPro <site@example.fr>",
};

/**
 * The built server of a test file or describe block, on an embedded database in a directory of
 * its own: started before the first test; stopped, its directory removed, after the last. The
 * returned server is there in tests and hooks only.
 */
export function useServer(setup: ServerSetup): ServerProcess {
  return useServers(setup, false).server;
}

/**
 * useServer with mails on: a real SMTP server on loopback (tests/support/smtp.ts), started first
 * and stopped last, that the server sends to (SMTP_URL and MAIL_ENV).
 */
export function useServerWithMail(setup: ServerSetup): {
  server: ServerProcess;
  smtp: TestSmtpServer;
} {
  return useServers(setup, true) as { server: ServerProcess; smtp: TestSmtpServer };
}

function useServers(setup: ServerSetup, withMail: boolean) {
  let smtp: TestSmtpServer | undefined;
  let server: ServerProcess | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    if (withMail) smtp = await startTestSmtpServer(await findFreePort());
    dataDir = tempDir(setup.label);
    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: {
        ...(smtp ? { SMTP_URL: smtp.url, ...MAIL_ENV } : {}),
        ...(setup.admin
          ? { ADMIN_EMAIL: setup.admin.email, ADMIN_PASSWORD: setup.admin.password }
          : {}),
        ...setup.env,
      },
    }).ready();
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    if (dataDir) removeDir(dataDir);
  });
  const missing = "useServer(): the server runs in tests and hooks only";
  return {
    server: lateBound(() => server, missing),
    smtp: withMail ? lateBound(() => smtp, missing) : undefined,
  };
}
