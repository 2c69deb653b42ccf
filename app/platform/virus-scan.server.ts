import { connect, type Socket } from "node:net";
import { type ClamdAddress, env, parseClamdAddress } from "~/platform/env.server";
import { log } from "~/platform/log.server";

// Uploads scanned by clamd (issue 41) with its INSTREAM command, spoken here over node:net: the
// protocol is a few lines, and the npm client (clamscan 2.4) ignores back-pressure, writes to
// console.error, and leaves some replies (COMMAND READ TIMED OUT, a cut connection) unsettled.
// Configured (CLAMAV_SOCKET), a file is kept only on a clean answer: no answer refuses it.

export type VirusScanResult =
  | { kind: "clean" }
  | { kind: "infected"; signature: string }
  | { kind: "unavailable"; reason: string };

/** What the buyer reads when clamd finds something. */
export const VIRUS_FOUND_MESSAGE =
  "Ce fichier a été refusé : l'antivirus y a détecté un contenu malveillant.";
/** What the buyer reads when clamd does not answer (with an HTTP 503). */
export const VIRUS_SCAN_UNAVAILABLE_MESSAGE =
  "Analyse antivirus indisponible, réessayez dans quelques minutes.";

const SCAN_TIMEOUT_MS = 30_000;
// clamd reads each chunk whole; 64 KiB is what its own clamdscan sends.
const CHUNK_BYTES = 64 * 1024;

/** Whether uploads are scanned (CLAMAV_SOCKET set); callers skip the scan otherwise. */
export function virusScanConfigured(): boolean {
  return env().CLAMAV_SOCKET !== undefined;
}

export type ScanOptions = {
  /** Another clamd than CLAMAV_SOCKET's (tests): a socket path or tcp://host:port. */
  socket?: string;
  timeoutMs?: number;
};

function addressOf(socket: string | undefined): ClamdAddress | undefined {
  return socket === undefined ? env().CLAMAV_SOCKET : parseClamdAddress(socket);
}

function describe(address: ClamdAddress): string {
  return "path" in address ? address.path : `tcp://${address.host}:${address.port}`;
}

function open(address: ClamdAddress): Socket {
  return "path" in address ? connect({ path: address.path }) : connect(address);
}

/**
 * One clamd command on its own connection: `z<command>\0`, then `body` (INSTREAM's chunks), and
 * the reply up to its NUL. Rejects on a connection error, a cut before the reply, or the deadline.
 */
function exchange(
  address: ClamdAddress,
  command: string,
  body: Buffer[],
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = open(address);
    const received: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const reply = Buffer.concat(received).toString("utf8");
      const end = reply.indexOf("\0");
      // clamd may answer before it has read everything (StreamMaxLength) and close: its answer
      // wins over the write error that follows.
      if (end >= 0) resolve(reply.slice(0, end).trim());
      else if (error) reject(error);
      else if (reply.trim()) resolve(reply.trim());
      else reject(new Error("connection closed without an answer"));
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      if (chunk.includes(0)) finish(undefined);
    });
    socket.on("error", (error) => finish(error));
    socket.on("close", () => finish(undefined));
    socket.on("connect", () => {
      socket.write(`z${command}\0`);
      for (const part of body) socket.write(part);
    });
  });
}

/** INSTREAM's body: the bytes in length-prefixed chunks (32-bit big-endian), then a zero length. */
function chunked(bytes: Uint8Array): Buffer[] {
  const parts: Buffer[] = [];
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 0; offset < view.length; offset += CHUNK_BYTES) {
    const chunk = view.subarray(offset, offset + CHUNK_BYTES);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    parts.push(length, chunk);
  }
  parts.push(Buffer.alloc(4));
  return parts;
}

/** clamd's answer to INSTREAM (`stream: OK`, `stream: <name> FOUND`, `… ERROR`) as a result. */
export function readScanReply(reply: string): VirusScanResult {
  if (/^stream: OK$/.test(reply)) return { kind: "clean" };
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found) return { kind: "infected", signature: found[1] };
  if (/size limit exceeded/i.test(reply)) {
    return { kind: "unavailable", reason: `larger than clamd's StreamMaxLength (${reply})` };
  }
  return { kind: "unavailable", reason: `clamd answered: ${reply.slice(0, 200)}` };
}

/**
 * The bytes scanned by clamd (CLAMAV_SOCKET, or `options.socket`). Never throws: an unset address,
 * a clamd that is down, slow (30 s) or refusing the stream is `unavailable`, and the caller refuses
 * the upload with VIRUS_SCAN_UNAVAILABLE_MESSAGE.
 */
export async function scanBytes(
  bytes: Uint8Array,
  options: ScanOptions = {},
): Promise<VirusScanResult> {
  const address = addressOf(options.socket);
  if (!address) {
    const reason = options.socket
      ? `not a clamd address: ${options.socket}`
      : "CLAMAV_SOCKET is not set";
    return { kind: "unavailable", reason };
  }
  const started = Date.now();
  let result: VirusScanResult;
  try {
    const reply = await exchange(
      address,
      "INSTREAM",
      chunked(bytes),
      options.timeoutMs ?? SCAN_TIMEOUT_MS,
    );
    result = readScanReply(reply);
  } catch (error) {
    result = { kind: "unavailable", reason: `clamd at ${describe(address)}: ${String(error)}` };
  }
  const fields = { bytes: bytes.byteLength, durationMs: Date.now() - started };
  if (result.kind === "infected") {
    log.warn("virus found", { ...fields, signature: result.signature });
  } else if (result.kind === "unavailable") {
    log.error("virus scan unavailable", { ...fields, reason: result.reason });
  }
  return result;
}

/** Whether clamd answers PING with PONG (within `timeoutMs`). */
export async function pingClamd(options: ScanOptions = {}): Promise<boolean> {
  const address = addressOf(options.socket);
  if (!address) return false;
  try {
    return (await exchange(address, "PING", [], options.timeoutMs ?? 2_000)) === "PONG";
  } catch {
    return false;
  }
}
