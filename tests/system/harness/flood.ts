import { fork } from "node:child_process";
import { Agent, request, type IncomingHttpHeaders } from "node:http";
import path from "node:path";

// Many clients on loopback without trusting a proxy (issue 28): a socket bound to another source
// address is another client for the server (Linux routes all of 127.0.0.0/8 to lo). Used by
// tests/system/quote.test.ts and by the bench's flood mode, which runs flood() in a process of
// its own (this file as a script) so that the flood's answers never delay its quiet client.

/** A second client address, beside the 127.0.0.1 every other test comes from. */
export const FLOOD_ADDRESS = "127.0.0.2";

export type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** One GET of `base` + `path`, through `agent` (keep-alive) or a socket from `localAddress`. */
export function getFrom(
  base: string,
  path: string,
  from: { localAddress?: string; agent?: Agent; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        agent: from.agent,
        localAddress: from.agent ? undefined : from.localAddress,
        headers: from.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export type FloodOptions = {
  base: string;
  /** The address asked; `{n}` is replaced by the request's number (a new question each time). */
  template: string;
  connections: number;
  localAddress: string;
  /** Ends at the first of: this many requests, this many milliseconds. */
  maxRequests: number;
  maxMs: number;
};

export type FloodResult = {
  requests: number;
  /** Answers by HTTP status ("0": no answer, a connection error). */
  statuses: Record<string, number>;
  /** The first 429, as answered. */
  refusal?: { retryAfter?: string; contentType?: string; text: string };
};

/**
 * `connections` keep-alive connections from one address, each asking again as soon as answered;
 * `until` settled ends it too, `onRefused` is called at the first 429.
 */
export async function flood(
  options: FloodOptions,
  hooks: { until?: Promise<unknown>; onRefused?: () => void } = {},
): Promise<FloodResult> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.connections,
    localAddress: options.localAddress,
  });
  const deadline = Date.now() + options.maxMs;
  let stopped = false;
  void hooks.until?.finally(() => (stopped = true));
  const result: FloodResult = { requests: 0, statuses: {} };
  const connection = async () => {
    while (!stopped && result.requests < options.maxRequests && Date.now() < deadline) {
      const n = result.requests++;
      const answer = await getFrom(options.base, options.template.replaceAll("{n}", String(n)), {
        agent,
      }).catch(() => undefined);
      const status = String(answer?.status ?? 0);
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
      if (answer?.status === 429 && !result.refusal) {
        const { "retry-after": retryAfter, "content-type": contentType } = answer.headers;
        result.refusal = { retryAfter, contentType, text: answer.body.toString("utf8") };
        hooks.onRefused?.();
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  agent.destroy();
  return result;
}

/** flood() in a process of its own (this file as a script, with tsx): its work never delays ours. */
export function floodInChild(options: FloodOptions): Promise<FloodResult> {
  const child = fork(import.meta.filename, [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (result) => resolve(result as FloodResult));
    child.once("error", reject);
  });
}

// As a script (floodInChild): sends the result to the parent process.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const result = await flood(JSON.parse(process.argv[2]) as FloodOptions);
  process.send?.(result, () => process.disconnect());
}
