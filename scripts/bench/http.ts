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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

export type Interleaved = {
  result: LoadResult;
  rounds: LoadResult[];
  /** The median of the per-round ratios of this target's req/s to another's. */
  ratioTo(other: Interleaved): number;
};

/**
 * Runs the targets in turn, `rounds` times, each for its share of the duration, so that a busy
 * moment on a shared machine weighs on all of them alike. req/s: the mean over the rounds; p50: the
 * median; p99: the highest round's.
 */
export async function interleaved(targets: LoadOptions[], rounds = 3): Promise<Interleaved[]> {
  const results: LoadResult[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      results[i].push(
        await load({ ...target, durationSeconds: Math.max(1, target.durationSeconds / rounds) }),
      );
    }
  }
  return results.map((runs) => ({
    rounds: runs,
    result: {
      rps: Math.round(runs.reduce((sum, r) => sum + r.rps, 0) / runs.length),
      p50: median(runs.map((r) => r.p50)),
      p99: Math.max(...runs.map((r) => r.p99)),
      requests: runs.reduce((sum, r) => sum + r.requests, 0),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      bytesPerResponse: runs[0].bytesPerResponse,
    },
    ratioTo(other) {
      return median(runs.map((r, i) => r.rps / other.rounds[i].rps));
    },
  }));
}
