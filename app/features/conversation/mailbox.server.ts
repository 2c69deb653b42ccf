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

/** Reads the mailbox's new messages once; returns how many were read and how many stored. */
export async function readMailbox(
  settings: MailboxSettings,
  database: Database,
): Promise<{ read: number; stored: number }> {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    connectionTimeout: 30_000,
  });
  await client.connect();
  let read = 0;
  let stored = 0;
  try {
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
        const message = await client.fetchOne(
          String(uid),
          { uid: true, size: true },
          { uid: true },
        );
        if (
          message &&
          message.size !== undefined &&
          message.size <= sourceMaxBytes(settings.attachmentMaxBytes)
        ) {
          const full = await client.fetchOne(String(uid), { source: true }, { uid: true });
          if (full && full.source) {
            read++;
            const outcome = await storeIncoming(full.source, `${place}:${uid}`, database, {
              attachmentMaxBytes: settings.attachmentMaxBytes,
            });
            if (outcome.stored) stored++;
          }
        } else {
          log.warn("mailbox message too large, not read", { uid, size: message && message.size });
        }
        await keepLastUid(key, uid, database);
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return { read, stored };
}

export type MailboxReader = { stop(): Promise<void>; readNow(): Promise<void> };

/** Reads the mailbox now, then every IMAP_POLL_SECONDS, until stopped; a failure waits a turn. */
export function startMailboxReader(
  handle: DatabaseHandle,
  settings: MailboxSettings,
): MailboxReader {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const turn = async () => {
    try {
      const { read, stored } = await readMailbox(settings, handle.db);
      if (read > 0) log.info("mailbox read", { read, stored });
    } catch (error) {
      log.warn("mailbox not read; will try again", { error });
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = turn().finally(schedule);
    }, settings.pollMs);
    timer.unref();
  };
  running = turn().finally(schedule);
  return {
    async readNow() {
      await running;
      await turn();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
