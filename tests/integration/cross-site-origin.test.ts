import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../app/platform/env.server";
import { refuseCrossSiteRequests } from "../../http-server/cross-site";
import { requestOrigin } from "../../http-server/fetch-adapter";
import {
  applyProxyTrust,
  compileProxyTrust,
  isSecureRequest,
  proxyTrustOf,
} from "../../http-server/proxy-trust";
import { send } from "../system/harness/http";

// The cross-site check compares origins through the URL parser, behind a proxy or not (issue 19);
// X-Forwarded-* are believed from a trusted proxy only, by address (issue 28). Each app is set up
// as http-server/http.ts does it, from a TRUST_PROXY value; the test's requests come from 127.0.0.1.
const servers: Server[] = [];

async function app(trustProxy: string): Promise<string> {
  const application = express();
  applyProxyTrust(
    application,
    compileProxyTrust(parseEnv({ TRUST_PROXY: trustProxy }).TRUST_PROXY),
  );
  const trust = proxyTrustOf(application);
  // What the server takes from a request: the client address (rate limits, sessions, journal),
  // the scheme and host (React Router's URL, cookies' Secure), and the fast path's HTTPS.
  application.get("/who", (req, res) => {
    res.json({
      ip: req.ip,
      origin: requestOrigin(req),
      secure: req.secure,
      fastPathSecure: isSecureRequest(req, trust),
    });
  });
  application.use(refuseCrossSiteRequests());
  application.post("/contact", (_req, res) => {
    res.send("ok");
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = application.listen(0, "127.0.0.1", () => resolve(listening));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let behindProxy: string;
let direct: string;
let otherProxy: string;
let anyPeer: string;
beforeAll(async () => {
  behindProxy = await app("loopback");
  direct = await app("");
  // A proxy elsewhere: the test's own connection (127.0.0.1) is a client that reached the port.
  otherProxy = await app("10.0.0.5, 192.168.10.0/24");
  anyPeer = await app("true");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const post = async (base: string, headers: [string, string][]) =>
  (await send(base, { method: "POST", path: "/contact", headers, body: "" })).status;

describe("cross-site check: our origin as the browser writes it", () => {
  it("accepts a Host with the scheme's default port (example.fr:443 behind an HTTPS proxy)", async () => {
    const https: [string, string] = ["X-Forwarded-Proto", "https"];
    expect(
      await post(behindProxy, [
        ["Host", "example.fr:443"],
        https,
        ["Origin", "https://example.fr"],
      ]),
    ).toBe(200);
    expect(
      await post(behindProxy, [["Host", "EXAMPLE.fr"], https, ["Origin", "https://example.fr"]]),
    ).toBe(200);
    expect(
      await post(direct, [
        ["Host", "example.fr:80"],
        ["Origin", "http://example.fr"],
      ]),
    ).toBe(200);
    // Another port is another origin.
    expect(
      await post(behindProxy, [
        ["Host", "example.fr:8443"],
        https,
        ["Origin", "https://example.fr"],
      ]),
    ).toBe(403);
  });

  it("honours X-Forwarded-Host from a trusted proxy only", async () => {
    const headers = (origin: string): [string, string][] => [
      ["Host", "app-interne:3000"],
      ["X-Forwarded-Host", "www.example.fr"],
      ["X-Forwarded-Proto", "https"],
      ["Origin", origin],
    ];
    expect(await post(behindProxy, headers("https://www.example.fr"))).toBe(200);
    expect(await post(behindProxy, headers("https://evil.example"))).toBe(403);
    // Without TRUST_PROXY, a client's X-Forwarded-Host is not believed.
    expect(await post(direct, headers("https://www.example.fr"))).toBe(403);
    // Nor from a peer that is not the listed proxy.
    expect(await post(otherProxy, headers("https://www.example.fr"))).toBe(403);
    expect(await post(direct, [...headers("http://app-interne:3000")])).toBe(200);
  });
});

describe("proxies trusted by address (TRUST_PROXY)", () => {
  const forwarded: [string, string][] = [
    ["Host", "app-interne:3000"],
    ["X-Forwarded-For", "203.0.113.9, 198.51.100.7"],
    ["X-Forwarded-Proto", "https"],
    ["X-Forwarded-Host", "www.example.fr"],
  ];
  const who = async (base: string, headers = forwarded) =>
    JSON.parse((await send(base, { path: "/who", headers })).text) as Record<string, unknown>;

  it("believes X-Forwarded-* from a trusted peer: the client is the closest untrusted address", async () => {
    expect(await who(behindProxy)).toEqual({
      ip: "198.51.100.7",
      origin: "https://www.example.fr",
      secure: true,
      fastPathSecure: true,
    });
    // A chain of trusted proxies is walked back to the first address that is not one.
    expect((await who(behindProxy, [["X-Forwarded-For", "203.0.113.9, 127.0.0.2"]])).ip).toBe(
      "203.0.113.9",
    );
  });

  it("ignores them from a peer that is not a trusted proxy, or with none", async () => {
    for (const base of [otherProxy, direct]) {
      expect(await who(base), base).toEqual({
        ip: "127.0.0.1",
        origin: "http://app-interne:3000",
        secure: false,
        fastPathSecure: false,
      });
    }
  });

  it("keeps the old TRUST_PROXY=true: the peer's one hop, whoever it is", async () => {
    expect((await who(anyPeer)).ip).toBe("198.51.100.7");
  });
});
