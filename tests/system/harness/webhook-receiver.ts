import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";

export type ReceivedWebhook = {
  id: string;
  /** The parsed body, once the Standard Webhooks library verified the signature. */
  body: { type: string; data: Record<string, unknown> };
  /** The status this receiver answered. */
  answered: number;
  receivedAt: number;
};

/**
 * A CRM's webhook endpoint on loopback: verifies every request with the `standardwebhooks`
 * library (a bad signature is answered 401 and counted in `rejected`), and answers what `answer`
 * says for that message id and attempt number (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  rejected = 0;
  secret = "";
  answer: (id: string, attempt: number) => number = () => 200;
  private server?: Server;

  constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Accepted (2xx) deliveries of message `id`. */
  accepted(id?: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.answered < 300 && (id === undefined || r.id === id));
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const payload = Buffer.concat(chunks).toString("utf8");
        let body: ReceivedWebhook["body"];
        try {
          body = new Webhook(this.secret).verify(
            payload,
            headerRecord(req.headers),
          ) as ReceivedWebhook["body"];
        } catch {
          this.rejected++;
          res.writeHead(401).end();
          return;
        }
        const id = String(req.headers["webhook-id"]);
        const attempt = this.received.filter((r) => r.id === id).length + 1;
        const answered = this.answer(id, attempt);
        this.received.push({ id, body, answered, receivedAt: Date.now() });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `count` distinct messages were accepted. */
  async waitForAccepted(count: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (new Set(this.accepted().map((r) => r.id)).size < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `${new Set(this.accepted().map((r) => r.id)).size}/${count} webhooks accepted`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
}
