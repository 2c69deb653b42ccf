import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseCrossSiteRequests } from "../../server/cross-site";
import { send } from "../system/harness/http";

// The cross-site check compares origins through the URL parser, behind a proxy or not (issue 19).
const servers: Server[] = [];

async function app(trustProxy: boolean): Promise<string> {
  const application = express();
  if (trustProxy) application.set("trust proxy", 1);
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
beforeAll(async () => {
  behindProxy = await app(true);
  direct = await app(false);
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

  it("honours X-Forwarded-Host with TRUST_PROXY only", async () => {
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
    expect(await post(direct, [...headers("http://app-interne:3000")])).toBe(200);
  });
});
