import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  acceptedEncodings,
  brotliForStore,
  gzipForStore,
  THRESHOLD_BYTES,
} from "../../http-server/compress";

// The one compression module (issue 43): the page cache's stored copies and the answers sent as
// made choose and compress through it (the page cache's own test sends them end to end).

const asking = (acceptEncoding?: string) =>
  ({
    headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
  }) as IncomingMessage;

describe("compression", () => {
  it("orders what the client accepts by q, then brotli, gzip, identity", () => {
    expect(acceptedEncodings(asking("gzip, deflate, br"))[0]).toBe("br");
    expect(acceptedEncodings(asking("gzip;q=1, br;q=0"))).toEqual(["gzip", "identity"]);
    expect(acceptedEncodings(asking("br;q=0.5, gzip"))[0]).toBe("gzip");
    expect(acceptedEncodings(asking())).toEqual(["identity"]);
  });

  it("makes a stored page's copies, none under the threshold", async () => {
    const page = Buffer.from("<p>Serveur dédié</p>".repeat(200));
    const gzip = gzipForStore(page);
    expect(gzip && gunzipSync(gzip).equals(page)).toBe(true);
    expect(brotliDecompressSync(await brotliForStore(page)).equals(page)).toBe(true);
    expect(gzipForStore(Buffer.alloc(THRESHOLD_BYTES - 1))).toBeUndefined();
  });
});
