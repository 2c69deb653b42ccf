import { eq, sql } from "drizzle-orm";
import { ImapFlow } from "imapflow";
import type { Database, DatabaseHandle } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { appState } from "~/platform/schema.server";
import { storeIncoming } from "./incoming.server";

// The mailbox of the buyers' replies (issue 40), read with imapflow by every instance: the last UID
// read is kept in app_state per mailbox and UIDVALIDITY, and each message is stored once
// (incoming.server.ts), so two instances reading at once, or a restart halfway, store nothing twice.

export type MailboxSettings = {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  mailbox: string;
  pollMs: number;
  /** The largest file kept from a message (INCOMING_ATTACHMENT_MAX_BYTES). */
  attachmentMaxBytes: number;
};

/**
 * The larger messages are not read: what one file at the limit needs in a mail (base64: 4/3 of
 * it, and the text around), 10 MiB at least.
 */
export function sourceMaxBytes(attachmentMaxBytes: number): number {
  return Math.max(10 * 1024 * 1024, Math.ceil((attachmentMaxBytes * 4) / 3) + 1024 * 1024);
}

/** IMAP_URL as the reader's settings, or null when no mailbox is configured. */
export function mailboxSettings(): MailboxSettings | null {
  const { IMAP_URL, IMAP_POLL_SECONDS, INCOMING_ATTACHMENT_MAX_BYTES } = env();
  return IMAP_URL ? parseImapUrl(IMAP_URL, IMAP_POLL_SECONDS, INCOMING_ATTACHMENT_MAX_BYTES) : null;
}

/** `imap(s)://user:password@host[:port]/Mailbox` (user and password URL-encoded). */
export function parseImapUrl(
  address: string,
  pollSeconds: number,
  attachmentMaxBytes = env().INCOMING_ATTACHMENT_MAX_BYTES,
): MailboxSettings {
  const url = new URL(address);
  const secure = url.protocol === "imaps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox: decodeURIComponent(url.pathname.replace(/^\/+/, "")) || "INBOX",
    pollMs: pollSeconds * 1000,
    attachmentMaxBytes,
  };
}

/** Keeps the highest UID read; never lowers it (another instance may have read further). */
async function keepLastUid(key: string, uid: number, database: Database) {
  await database
    .insert(appState)
    .values({ key, value: String(uid) })
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`greatest(${appState.value}::bigint, ${uid})::text` },
    });
}

/**
 * A connection to the mailbox's server. `watch`: kept open on the mailbox, idling (RFC 2177) as
 * soon as it has nothing to do, so that the server tells it of new mail; else one read and out.
 */
function connection(settings: MailboxSettings, watch: boolean): ImapFlow {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    connectionTimeout: 30_000,
    disableAutoIdle: !watch,
    // IDLE starts a second after the last command, and starts again every few minutes (NAT).
    ...(watch ? { autoIdleDelay: 1_000, maxIdleTime: 4 * 60_000 } : {}),
  });
  // imapflow emits one 'error' and closes: without a listener it would end the process.
  client.on("error", (error) => log.warn("mailbox connection lost", { error }));
  return client;
}

/** Ends a connection: a polite LOGOUT, not waited for more than a second, then the socket. */
async function disconnect(client: ImapFlow) {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.logout().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
  ]);
  clearTimeout(timer);
  client.close();
}

/**
 * Reads the mailbox's new messages on an open connection; stops between two messages once `until`
 * says so (the reader is stopping). Each message is fetched once, its source no longer than read.
 */
async function readOn(
  client: ImapFlow,
  settings: MailboxSettings,
  database: Database,
  until: () => boolean = () => false,
): Promise<{ read: number; stored: number }> {
  let read = 0;
  let stored = 0;
  const maxBytes = sourceMaxBytes(settings.attachmentMaxBytes);
  const lock = await client.getMailboxLock(settings.mailbox);
  try {
    const box = client.mailbox;
    if (!box) return { read, stored };
    const place = `${settings.user}@${settings.host}/${settings.mailbox}:${box.uidValidity}`;
    const key = `mailbox:${place}`;
    const [state] = await database
      .select({ value: appState.value })
      .from(appState)
      .where(eq(appState.key, key));
    const last = Number(state?.value ?? 0);
    if (box.exists === 0) return { read, stored };
    const found = await client.search({ uid: `${last + 1}:*` }, { uid: true });
    const uids = (found || []).filter((uid) => uid > last).sort((a, b) => a - b);
    for (const uid of uids) {
      if (until()) break;
      // A larger message comes cut at maxBytes: its size says it is not to be read.
      const message = await client.fetchOne(
        String(uid),
        { uid: true, size: true, source: { maxLength: maxBytes } },
        { uid: true },
      );
      if (message && message.source && message.size !== undefined && message.size <= maxBytes) {
        read++;
        const outcome = await storeIncoming(message.source, `${place}:${uid}`, database, {
          attachmentMaxBytes: settings.attachmentMaxBytes,
        });
        if (outcome.stored) stored++;
      } else if (message) {
        log.warn("mailbox message too large, not read", { uid, size: message.size });
      }
      await keepLastUid(key, uid, database);
    }
  } finally {
    lock.release();
  }
  return { read, stored };
}

/** Reads the mailbox's new messages once, on a connection of its own. */
export async function readMailbox(
  settings: MailboxSettings,
  database: Database,
): Promise<{ read: number; stored: number }> {
  const client = connection(settings, false);
  await client.connect();
  try {
    return await readOn(client, settings, database);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export type MailboxReader = { stop(): Promise<void>; readNow(): Promise<void> };

/**
 * Reads the mailbox now, then as soon as new mail arrives where the server offers IDLE (one
 * connection kept open on the mailbox), and every IMAP_POLL_SECONDS in any case: the poll is the
 * fallback of a server without IDLE, and opens the connection again after a failure.
 */
export function startMailboxReader(
  handle: DatabaseHandle,
  settings: MailboxSettings,
): MailboxReader {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let watcher: ImapFlow | undefined;
  let idleMissing = false;

  /** The open connection told of new mail, when the server can IDLE (opened here if need be). */
  const watch = async (): Promise<ImapFlow | undefined> => {
    if (watcher?.usable) return watcher;
    watcher = undefined;
    if (idleMissing || stopped) return undefined;
    const client = connection(settings, true);
    await client.connect();
    try {
      if (!client.capabilities.has("IDLE")) {
        idleMissing = true;
        log.info("mailbox server without IDLE: read every poll", { host: settings.host });
        await disconnect(client);
        return undefined;
      }
      client.on("exists", () => void read());
      client.on("close", () => {
        if (watcher === client) watcher = undefined;
      });
      await client.mailboxOpen(settings.mailbox);
    } catch (error) {
      client.close();
      throw error;
    }
    if (stopped) {
      await disconnect(client);
      return undefined;
    }
    watcher = client;
    return client;
  };

  const turn = async () => {
    try {
      const client = await watch();
      const { read, stored } = client
        ? await readOn(client, settings, handle.db, () => stopped)
        : await readMailbox(settings, handle.db);
      if (read > 0) log.info("mailbox read", { read, stored });
    } catch (error) {
      log.warn("mailbox not read; will try again", { error });
      // The next turn connects again.
      const broken = watcher;
      watcher = undefined;
      broken?.close();
    }
  };

  /** One read at a time: asked during a read, another follows it. */
  const read = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    again = true;
    running ??= (async () => {
      try {
        while (again && !stopped) {
          again = false;
          await turn();
        }
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void read().finally(schedule), settings.pollMs);
    timer.unref();
  };
  void read().finally(schedule);
  return {
    async readNow() {
      await read();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // A read under way ends after its current message; then the IDLE connection is closed.
      await running;
      const client = watcher;
      watcher = undefined;
      if (client) await disconnect(client);
    },
  };
}
