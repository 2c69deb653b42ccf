import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { findFreePort } from "../system/harness/ports";

export const DOVECOT_PATH = process.env.DOVECOT_PATH ?? "/usr/sbin/dovecot";

export type TestImapServer = {
  port: number;
  /** IMAP_URL for the test mailbox (its user and password, its INBOX). */
  url: string;
  /** Puts a message in the mailbox with IMAP APPEND, as a mail delivery would. */
  append(raw: string): Promise<void>;
  /** How many IMAP sessions are open now, as Dovecot's log tells (logins less disconnections). */
  openSessions(): number;
  stop(): Promise<void>;
};

/** A system account's ids, from /etc/passwd (the package's `dovecot` user). */
function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`no system user ${name} (is dovecot-imapd installed?)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

const USER = "ventes";
const PASSWORD = "mot-de-passe-imap";

/**
 * A real IMAP server on loopback: Debian's Dovecot (dovecot-imapd) with a configuration of its own
 * in a temporary folder, one user with a plain password, Maildir storage, no TLS (loopback only).
 * Run as whoever runs the tests (root in CI): every path and user is this process's own.
 */
export async function startTestImapServer(): Promise<TestImapServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "imap-"));
  const port = await findFreePort();
  // As root (CI), Dovecot's own unprivileged users run the logins and own the mail; otherwise the
  // user running the tests does all of it.
  const me = userInfo();
  const root = me.uid === 0;
  const mailUser = root ? systemUser("dovecot") : { uid: me.uid, gid: me.gid };
  chmodSync(dir, 0o755);
  for (const sub of ["run", "state", "home"]) mkdirSync(path.join(dir, sub));
  chownSync(path.join(dir, "home"), mailUser.uid, mailUser.gid);
  writeFileSync(path.join(dir, "passwd"), `${USER}:{PLAIN}${PASSWORD}::::::\n`);
  writeFileSync(
    path.join(dir, "dovecot.conf"),
    `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_login_user = ${root ? "dovenull" : me.username}
default_internal_user = ${root ? "dovecot" : me.username}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${dir}/home/%u
}
mail_location = maildir:~/Maildir
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT_PATH, ["-F", "-c", path.join(dir, "dovecot.conf")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `imap://${USER}:${PASSWORD}@127.0.0.1:${port}/INBOX`;
  const client = () =>
    new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      auth: { user: USER, pass: PASSWORD },
      logger: false,
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = readFileSync(path.join(dir, "dovecot.log"), "utf8").slice(-2000);
      throw new Error(`dovecot exited (${child.exitCode}): ${output}\n${log}`);
    }
    const probe = client();
    try {
      await probe.connect();
      await probe.logout();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        // Not left running behind a failed start.
        child.kill("SIGKILL");
        const log = readFileSync(path.join(dir, "dovecot.log"), "utf8").slice(-2000);
        throw new Error(`dovecot not ready: ${String(error)}\n${output}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    url,
    async append(raw) {
      const appender = client();
      await appender.connect();
      try {
        await appender.append("INBOX", raw);
      } finally {
        await appender.logout();
      }
    },
    openSessions() {
      const log = readFileSync(path.join(dir, "dovecot.log"), "utf8");
      const count = (pattern: RegExp) => log.match(pattern)?.length ?? 0;
      return count(/ Login: user=/g) - count(/: Disconnected/g);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
