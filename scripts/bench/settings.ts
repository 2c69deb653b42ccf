// The bench's settings from the environment (docs/benchmark.md), shared by its modes.
import path from "node:path";
import * as tools from "./tools";

export const TMP = path.join(tools.ROOT, "bench/tmp");
export const DURATION = tools.envNumber("BENCH_DURATION", 6);
export const CONNECTIONS = tools.envNumber("BENCH_CONNECTIONS", 10);
export const LIGHTHOUSE_RUNS = tools.envNumber("BENCH_LIGHTHOUSE_RUNS", 3);

export const FORM = "application/x-www-form-urlencoded";
