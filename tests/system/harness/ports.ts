import { createServer } from "node:net";

// Everything the system tests start listens on loopback in 4520-4599 (4501 is Playwright's).
const FIRST = 4520;
const LAST = 4599;

function tryPort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

// Ports this process handed out: two calls before either server listens never get the same one.
const given = new Set<number>();

/**
 * A port in the range that is free right now and not handed out before by this process (start at
 * a random place: files run in parallel, each in its own process).
 */
export async function findFreePort(): Promise<number> {
  const span = LAST - FIRST + 1;
  // A long run (the bench) forgets the oldest: only calls close together can race.
  if (given.size >= span / 2) given.clear();
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = FIRST + ((start + i) % span);
    if (given.has(port)) continue;
    if (await tryPort(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${FIRST}-${LAST}`);
}
