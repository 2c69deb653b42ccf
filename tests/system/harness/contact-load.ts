import { openPglite } from "../../../app/platform/db.server";
import { contactRequests } from "../../../app/platform/schema.server";
import { clientAddress, postContact } from "../support";

export type ContactLoad = {
  /** Ids (`<client>-<seq>`) of the requests answered 200. */
  acknowledged: Set<string>;
  /** Answered with another status. */
  rejected: number;
  /** Cut by a connection error. */
  failed: number;
  /** Ends the loops (no new request) and resolves when every client has returned. */
  stop(): Promise<void>;
};

/**
 * `clients` concurrent clients, each from its own address, posting the contact form one request
 * after another until stop(), each message `<label> <client>-<seq>`. A client that hits a
 * connection error returns once `gone()` says the server is gone (by default at once).
 */
export function postContactsUntilStopped(
  base: string,
  options: { clients: number; label: string; gone?: () => boolean },
): ContactLoad {
  const gone = options.gone ?? (() => true);
  let stopped = false;
  const load = { acknowledged: new Set<string>(), rejected: 0, failed: 0 };
  const client = async (n: number) => {
    for (let seq = 0; !stopped; seq++) {
      const id = `${n}-${seq}`;
      try {
        const status = await postContact(
          base,
          {
            name: `Client ${n}`,
            email: `client${n}@example.fr`,
            message: `${options.label} ${id}`,
          },
          clientAddress(n + 1),
        );
        if (status === 200) load.acknowledged.add(id);
        else load.rejected++;
      } catch {
        load.failed++;
        if (gone()) return;
      }
    }
  };
  const running = Array.from({ length: options.clients }, (_, n) => client(n));
  return Object.assign(load, {
    stop() {
      stopped = true;
      return Promise.all(running).then(() => undefined);
    },
  });
}

/** The ids of the messages posted with `label` among `messages`. */
export function storedIds(messages: string[], label: string): Set<string> {
  const prefix = `${label} `;
  return new Set(messages.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length)));
}

/** Every contact message in the embedded database of `dataDir` (no server may hold it). */
export async function embeddedMessages(dataDir: string): Promise<string[]> {
  const handle = await openPglite(dataDir);
  try {
    const rows = await handle.db.select({ message: contactRequests.message }).from(contactRequests);
    return rows.map((r) => r.message);
  } finally {
    await handle.close();
  }
}
