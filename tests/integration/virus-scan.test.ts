import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseClamdAddress, parseEnv } from "../../app/platform/env.server";
import {
  pingClamd,
  readScanReply,
  scanBytes,
  virusScanConfigured,
} from "../../app/platform/virus-scan.server";
import {
  CLAMD_PATH,
  EICAR,
  EICAR_SIGNATURE,
  startTestClamd,
  type TestClamd,
} from "../support/clamd";

// Uploads scanned by a real clamd (Debian's clamav-daemon, tests/support/clamd.ts) holding one
// signature made for the test, the EICAR file's: the public databases cannot be downloaded here.

// Scans name their clamd; the configuration read once stays without one.
vi.hoisted(() => {
  delete process.env.CLAMAV_SOCKET;
});

// clamd comes from scripts/system-deps.sh: CI always has it; a machine without it skips, and says so.
const noClamd = !existsSync(CLAMD_PATH) && !process.env.CI;
if (noClamd) console.warn(`virus-scan.test.ts skipped: no ${CLAMD_PATH} (scripts/system-deps.sh)`);

/** The start of a PDF and some text: what a scanned Kbis looks like to clamd. */
const PDF_LIKE = Buffer.from(
  "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n" +
    "2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);

describe.skipIf(noClamd)("scanBytes against clamd", () => {
  let clamd: TestClamd;

  beforeAll(async () => {
    const started = Date.now();
    clamd = await startTestClamd();
    console.info(`clamd ready in ${Date.now() - started} ms`);
  });
  afterAll(async () => {
    await clamd?.stop();
  });

  it("answers PING", async () => {
    expect(await pingClamd({ socket: clamd.socket })).toBe(true);
  });

  it("finds the EICAR test file, and names its signature", async () => {
    const result = await scanBytes(EICAR, { socket: clamd.socket });
    expect(result.kind).toBe("infected");
    expect(result.kind === "infected" && result.signature).toMatch(
      new RegExp(`^${EICAR_SIGNATURE}\\b`),
    );
  });

  it("finds it inside a larger file, past the first chunk", async () => {
    const padded = Buffer.concat([Buffer.alloc(200 * 1024, 0x20), EICAR, Buffer.alloc(1024, 0x20)]);
    expect((await scanBytes(padded, { socket: clamd.socket })).kind).toBe("infected");
  });

  it("lets a clean PDF-like file through", async () => {
    expect(await scanBytes(PDF_LIKE, { socket: clamd.socket })).toEqual({ kind: "clean" });
  });

  it("lets an empty file through", async () => {
    expect(await scanBytes(new Uint8Array(0), { socket: clamd.socket })).toEqual({ kind: "clean" });
  });

  it("scans 12 MB in chunks (above the 10 MB upload limit, below StreamMaxLength)", async () => {
    const big = new Uint8Array(12 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    expect(await scanBytes(big, { socket: clamd.socket })).toEqual({ kind: "clean" });
  });

  it("reads a Uint8Array that is a window on a larger buffer", async () => {
    const around = Buffer.concat([Buffer.from("prefix"), EICAR, Buffer.from("suffix")]);
    const window = new Uint8Array(around.buffer, around.byteOffset + 6, EICAR.length);
    expect((await scanBytes(window, { socket: clamd.socket })).kind).toBe("infected");
    const before = new Uint8Array(around.buffer, around.byteOffset, 6 + 10);
    expect(await scanBytes(before, { socket: clamd.socket })).toEqual({ kind: "clean" });
  });

  it("answers unavailable, never clean, past clamd's StreamMaxLength (25M)", async () => {
    const result = await scanBytes(new Uint8Array(26 * 1024 * 1024), { socket: clamd.socket });
    expect(result).toEqual({
      kind: "unavailable",
      reason: expect.stringContaining("StreamMaxLength"),
    });
  });

  it("scans several files at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        scanBytes(i % 2 ? EICAR : PDF_LIKE, { socket: clamd.socket }),
      ),
    );
    expect(results.map((r) => r.kind)).toEqual(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? "infected" : "clean")),
    );
  });
});

describe.skipIf(noClamd)("scanBytes when clamd is gone", () => {
  it("answers unavailable at once once clamd has stopped", async () => {
    const clamd = await startTestClamd();
    expect((await scanBytes(EICAR, { socket: clamd.socket })).kind).toBe("infected");
    await clamd.stop();
    const started = Date.now();
    const result = await scanBytes(EICAR, { socket: clamd.socket });
    expect(result).toEqual({ kind: "unavailable", reason: expect.stringContaining("ENOENT") });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pingClamd({ socket: clamd.socket })).toBe(false);
  });

  it("takes the socket path chosen by the test", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clamd-socket-"));
    const socket = path.join(dir, "chosen.sock");
    const clamd = await startTestClamd({ socket });
    try {
      expect(clamd.socket).toBe(socket);
      expect(await pingClamd({ socket })).toBe(true);
    } finally {
      await clamd.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("scanBytes without clamd", () => {
  let dir: string;
  let silent: Server;
  let closing: Server;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "no-clamd-"));
    // One that reads and never answers; one that closes without a word. Both read what comes, or
    // they would never see the client leave and close() would wait for ever.
    silent = createServer((connection) => connection.resume());
    closing = createServer((connection) => connection.resume().end());
    await new Promise<void>((resolve) => silent.listen(path.join(dir, "silent.sock"), resolve));
    await new Promise<void>((resolve) => closing.listen(path.join(dir, "closing.sock"), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => silent.close(resolve));
    await new Promise((resolve) => closing.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("is not configured while CLAMAV_SOCKET is unset, and says so", async () => {
    expect(virusScanConfigured()).toBe(false);
    expect(await scanBytes(EICAR)).toEqual({
      kind: "unavailable",
      reason: "CLAMAV_SOCKET is not set",
    });
  });

  it("answers unavailable when nothing listens on a TCP address", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const result = await scanBytes(EICAR, { socket: `tcp://127.0.0.1:${port}` });
    expect(result).toEqual({
      kind: "unavailable",
      reason: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("gives up after the deadline when clamd does not answer", async () => {
    const started = Date.now();
    const result = await scanBytes(EICAR, {
      socket: path.join(dir, "silent.sock"),
      timeoutMs: 300,
    });
    expect(result).toEqual({ kind: "unavailable", reason: expect.stringContaining("300 ms") });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("answers unavailable when the connection closes without a reply", async () => {
    const result = await scanBytes(EICAR, { socket: path.join(dir, "closing.sock") });
    expect(result.kind).toBe("unavailable");
  });
});

describe("clamd's replies", () => {
  it.each([
    ["stream: OK", { kind: "clean" }],
    ["stream: Eicar-Test-Signature FOUND", { kind: "infected", signature: "Eicar-Test-Signature" }],
    ["stream: Win.Test.EICAR_HDB-1 FOUND", { kind: "infected", signature: "Win.Test.EICAR_HDB-1" }],
  ])("%s", (reply, expected) => {
    expect(readScanReply(reply)).toEqual(expected);
  });

  it.each([
    "INSTREAM size limit exceeded. ERROR",
    "COMMAND READ TIMED OUT",
    "stream: Can't allocate memory ERROR",
    "UNKNOWN COMMAND",
    "",
  ])("%s is not clean", (reply) => {
    expect(readScanReply(reply).kind).toBe("unavailable");
  });
});

describe("CLAMAV_SOCKET", () => {
  it("takes a Unix socket's path or tcp://host:port", () => {
    expect(parseEnv({ CLAMAV_SOCKET: "/run/clamav/clamd.ctl" }).CLAMAV_SOCKET).toEqual({
      path: "/run/clamav/clamd.ctl",
    });
    expect(parseEnv({ CLAMAV_SOCKET: "tcp://clamav.internal:3310" }).CLAMAV_SOCKET).toEqual({
      host: "clamav.internal",
      port: 3310,
    });
    expect(parseClamdAddress("tcp://[::1]:3310")).toEqual({ host: "::1", port: 3310 });
    expect(parseEnv({ CLAMAV_SOCKET: "" }).CLAMAV_SOCKET).toBeUndefined();
    expect(parseEnv({}).CLAMAV_SOCKET).toBeUndefined();
  });

  it.each([
    "clamd.ctl",
    "tcp://clamav.internal",
    "tcp://clamav.internal:0",
    "tcp://clamav.internal:99999",
    "tcp://clamav.internal:3310/scan",
    "http://clamav.internal:3310",
    "/run/clamav/clam d.ctl",
  ])("refuses %s with a French message", (value) => {
    expect(() => parseEnv({ CLAMAV_SOCKET: value })).toThrow(/CLAMAV_SOCKET: chemin du socket/);
  });
});
