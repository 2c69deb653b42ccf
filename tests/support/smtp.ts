import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";
import type { MailSettings } from "../../app/features/mail/mail-settings.server";

export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: Email;
  receivedAt: number;
};

export type TestSmtpServer = {
  port: number;
  /** SMTP_URL for this server, with its credentials. */
  url: string;
  mails: ReceivedMail[];
  /** While set, every message is refused with this reply (e.g. 451 try later). */
  rejectWith(reply: { code: number; message: string } | null): void;
  /** Messages refused so far. */
  rejected: number;
  /**
   * While on, each message's reply to DATA waits (a slow relay) until `hold(false)`; a message whose
   * client hangs up meanwhile is dropped at once, never accepted. `held` counts those waiting.
   */
  hold(on: boolean): void;
  held: number;
  /** Stops listening (connections are refused) until start() is called again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once `count` mails have arrived; rejects after `timeoutMs` with what arrived. */
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
};

export const SMTP_USER = "notifier";
export const SMTP_PASSWORD = "s3cret-pass";

/**
 * A real SMTP server on loopback (the smtp-server package), requiring AUTH like a real relay.
 * STARTTLS is not offered (no certificate here), so the client speaks plain SMTP on loopback.
 */
export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let refusal: { code: number; message: string } | null = null;
  let holding = false;
  const onHold = new Map<string, (accepted: boolean) => void>();
  let server: SMTPServer | undefined;
  const result: TestSmtpServer = {
    port,
    url: "",
    mails,
    rejected: 0,
    rejectWith(reply) {
      refusal = reply;
    },
    held: 0,
    hold(on) {
      holding = on;
      if (on) return;
      const releases = [...onHold.values()];
      onHold.clear();
      for (const release of releases) release(true);
    },
    async start() {
      if (server) return;
      server = new SMTPServer({
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        logger: false,
        onAuth(auth, _session, callback) {
          if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
            callback(null, { user: auth.username });
          } else {
            callback(new Error("Invalid username or password"));
          }
        },
        onClose(session) {
          onHold.get(session.id)?.(false);
          onHold.delete(session.id);
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            if (holding) {
              result.held++;
              onHold.set(session.id, (accepted) => {
                result.held--;
                if (accepted) accept();
                else callback(new Error("client gone"));
              });
            } else accept();
          });
          const accept = () => {
            if (refusal) {
              result.rejected++;
              const error = new Error(refusal.message) as Error & { responseCode: number };
              error.responseCode = refusal.code;
              return callback(error);
            }
            const raw = Buffer.concat(chunks).toString("utf8");
            PostalMime.parse(raw).then(
              (parsed) => {
                mails.push({
                  envelope: {
                    from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                    to: session.envelope.rcptTo.map((r) => r.address),
                  },
                  raw,
                  parsed,
                  receivedAt: Date.now(),
                });
                callback();
                for (const wake of waiters.splice(0)) wake();
              },
              (error: Error) => callback(error),
            );
          };
        },
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once("error", reject);
        listening.listen(result.port, "127.0.0.1", () => {
          listening.off("error", reject);
          resolve();
        });
      });
      const address = listening.server.address();
      if (typeof address === "object" && address) result.port = address.port;
      result.url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${result.port}`;
    },
    async stop() {
      const running = server;
      server = undefined;
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    waitForMails(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(
              `expected ${count} mails, got ${mails.length}: ${mails.map((m) => m.parsed.subject).join(" | ")}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (mails.length >= count) {
            clearTimeout(timer);
            resolve(mails.slice());
          } else {
            waiters.push(check);
          }
        };
        check();
      });
    },
  };
  await result.start();
  return result;
}

/** The mail worker's settings for a test sending to `smtp`: the team at ventes@, the site's sender. */
export function testMailSettings(
  smtp: { url: string },
  overrides: Partial<MailSettings> = {},
): MailSettings {
  return {
    smtpUrl: smtp.url,
    to: ["ventes@example.fr"],
    from: { name: "ServeurPro", address: "site@example.fr" },
    retryMaxSeconds: 1,
    baseUrl: "http://www.example.fr",
    pricing: { vatRate: 20, display: "ht" },
    ...overrides,
  };
}
