// Preloaded into the measured server by scripts/bench/run.ts (memory) (node --import): on SIGUSR2 the
// process writes its own memory figures as one line on stdout. Not part of the application.
import v8 from "node:v8";

process.on("SIGUSR2", () => {
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const line = {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    heapLimit: heap.heap_size_limit,
  };
  process.stdout.write(`MEMORY_PROBE ${JSON.stringify(line)}\n`);
});
