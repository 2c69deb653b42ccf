import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  bytesPerResponse: number;
};

export type LoadOptions = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  durationSeconds: number;
  connections: number;
};

/** autocannon against one URL for a fixed duration. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    duration: options.durationSeconds,
    connections: options.connections,
    timeout: 10,
  });
  const responses = result.requests.total || 1;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerResponse: Math.round(result.throughput.total / responses),
  };
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Samples a process's RSS while `work` runs; returns the highest value seen. */
export async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<[T, number]> {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // process gone
    }
  }, 200);
  try {
    const value = await work();
    return [value, Math.max(peak, rssMb(pid))];
  } finally {
    clearInterval(timer);
  }
}
