/**
 * Wraps a read (e.g. a database query) so that concurrent callers share queries without ever
 * getting a stale answer: every caller gets the result of a read that *started after it called*.
 * A caller arriving while a read is in flight waits for the next one, which starts as soon as the
 * current one settles and serves everyone who queued meanwhile. At most one read is in flight and
 * one queued, whatever the load.
 *
 * This is what lets a per-instance cache honour a change committed by another instance at once:
 * a request that arrives after the commit always sees it.
 */
export function freshRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  let queued: Promise<T> | undefined;

  function start(): Promise<T> {
    const promise = read();
    inFlight = promise;
    const settle = () => {
      if (inFlight === promise) inFlight = undefined;
    };
    promise.then(settle, settle);
    return promise;
  }

  return function fresh(): Promise<T> {
    if (!inFlight) return start();
    if (!queued) {
      const next = inFlight.then(
        () => undefined,
        () => undefined,
      );
      queued = next.then(() => {
        queued = undefined;
        return start();
      });
    }
    return queued;
  };
}
