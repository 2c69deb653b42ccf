import { createServer } from "node:net";

// Everything the system tests start listens on loopback in 4520-4759 (the browser suite's servers
// are on 4173-4175).
const FIRST = 4520;
const LAST = 4759;
// Files run side by side in Vitest workers, each its own process. A server starts listening seconds
// after its port was found free (PGlite opens first), so two processes probing the same range
// could both be handed one port. Each worker searches its own slice instead (VITEST_POOL_ID is
// unique among the workers running at a time); outside Vitest (the bench) the whole range is used.
const SLICES = 8;
const SLICE = Math.floor((LAST - FIRST + 1) / SLICES);
const poolId = Number(process.env.VITEST_POOL_ID);
const [low, span] =
  poolId >= 1 ? [FIRST + ((poolId - 1) % SLICES) * SLICE, SLICE] : [FIRST, LAST - FIRST + 1];

function tryPort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

// The ports this process handed out last (oldest first): within one process too, two calls before
// either server listens must not get the same port.
const given = new Set<number>();

/** A port of this process's slice that is free right now and not among the last handed out. */
export async function findFreePort(): Promise<number> {
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = low + ((start + i) % span);
    if (given.has(port)) continue;
    if (await tryPort(port)) {
      given.add(port);
      // Only calls close together can race: the oldest is forgotten past half the slice.
      if (given.size > span / 2) given.delete(given.values().next().value as number);
      return port;
    }
  }
  throw new Error(`no free port in ${low}-${low + span - 1}`);
}
