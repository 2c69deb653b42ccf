import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { sleep, withTimeout } from "../support";
import { ROOT } from "./server-process";

/** Debian's nginx (scripts/system-deps.sh installs it, stopped). */
export const NGINX = "/usr/sbin/nginx";

/** The documented site configuration (docs/production.md), which the test runs as it is. */
export const NGINX_SITE = path.join(ROOT, "deploy/nginx/serveurpro.conf");

/**
 * Whether the tests that need nginx can run: CI must have it; elsewhere, without it, those tests
 * are skipped with a warning.
 */
export function nginxFor(what: string): boolean {
  const available = existsSync(NGINX);
  if (!available && process.env.CI) throw new Error("CI needs nginx (scripts/system-deps.sh)");
  if (!available) console.warn(`WARNING: ${NGINX} not found; ${what} skipped.`);
  return available;
}

export type NginxSetup = {
  /** Where the documented file says 443 (TLS) and 80 (the redirect to HTTPS). */
  httpsPort: number;
  httpPort: number;
  /** The instances' ports, in place of the documented 3001 and 3002. */
  upstreamPorts: [number, number];
};

/**
 * The documented file with this test's ports, addresses and a self-signed certificate in place of
 * production's. Each replacement must match exactly once: a change of the documented file that
 * the test would no longer run fails here.
 */
export function siteConfiguration(setup: NginxSetup, certificate: { cert: string; key: string }) {
  let text = readFileSync(NGINX_SITE, "utf8");
  const replacements: [string, string][] = [
    ["server 127.0.0.1:3001 ", `server 127.0.0.1:${setup.upstreamPorts[0]} `],
    ["server 127.0.0.1:3002 ", `server 127.0.0.1:${setup.upstreamPorts[1]} `],
    ["listen 80;", `listen 127.0.0.1:${setup.httpPort};`],
    ["listen 443 ssl;", `listen 127.0.0.1:${setup.httpsPort} ssl;`],
    ["/etc/letsencrypt/live/www.example.fr/fullchain.pem", certificate.cert],
    ["/etc/letsencrypt/live/www.example.fr/privkey.pem", certificate.key],
  ];
  for (const [from, to] of replacements) {
    const count = text.split(from).length - 1;
    if (count !== 1)
      throw new Error(`${NGINX_SITE}: '${from}' found ${count} times, expected once`);
    text = text.replace(from, to);
  }
  return text;
}

export type NginxProcess = {
  /** https://127.0.0.1:<httpsPort> */
  base: string;
  /** Trusts this nginx's self-signed certificate (node:https). */
  agent: Agent;
  /** nginx's own error log so far (upstream failures are logged there). */
  errorLog(): string;
  stop(): Promise<void>;
};

/**
 * nginx as a process of the test (not Debian's service): its own prefix, pid file, logs and
 * temporary files in a scratch directory, the documented site included in a minimal main
 * configuration, in the foreground.
 */
export async function startNginx(setup: NginxSetup): Promise<NginxProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), "serveurpro-nginx-"));
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  mkdirSync(path.join(dir, "temp"));
  writeFileSync(path.join(dir, "site.conf"), siteConfiguration(setup, { cert, key }));
  const errorLog = path.join(dir, "error.log");
  // As root the workers would run as nobody, who cannot write this scratch directory.
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLog, "-g", "daemon off;"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const readLog = () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
  const agent = new Agent({ keepAlive: true, ca: readFileSync(cert), maxSockets: 64 });
  const base = `https://127.0.0.1:${setup.httpsPort}`;
  const stop = async () => {
    agent.destroy();
    if (child.exitCode === null) child.kill("SIGQUIT");
    await withTimeout(exited, 10_000, "nginx did not stop").catch(() => child.kill("SIGKILL"));
    rmSync(dir, { recursive: true, force: true });
  };
  // Listening once it answers the redirect port's 301.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      throw new Error(`nginx exited:\n${output}\n${readLog()}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${setup.httpPort}/`, { redirect: "manual" });
      if (res.status === 301) break;
    } catch {
      // not listening yet
    }
    if (i > 100) {
      await stop();
      throw new Error(`nginx did not start:\n${output}\n${readLog()}`);
    }
    await sleep(50);
  }
  return { base, agent, errorLog: readLog, stop };
}

export type HttpsAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
};

/** One request through nginx with its agent (kept-alive connections, the test's certificate). */
export function httpsRequest(
  proxy: NginxProcess,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<HttpsAnswer> {
  const url = new URL(options.path, proxy.base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body, "utf8");
  return withTimeout(
    new Promise<HttpsAnswer>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: options.method ?? "GET",
          path: `${url.pathname}${url.search}`,
          agent: proxy.agent,
          headers: {
            ...options.headers,
            ...(body ? { "Content-Length": String(body.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    }),
    30_000,
    `${options.method ?? "GET"} ${options.path}: no answer in 30 s`,
  );
}
