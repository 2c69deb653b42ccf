import { describe, expect, it } from "vitest";
import { checkEndpointUrl, isPrivateAddress, refusedLiteral } from "./webhook-address.server";

describe("isPrivateAddress", () => {
  it("refuses loopback, private, link-local and mapped addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "198.51.100.7",
      "::1",
      "::",
      "[::1]",
      "fd00::1",
      "fe80::1",
      "fe80::1%eth0",
      "::ffff:127.0.0.1",
      "not-an-ip",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it("refuses IPv6 forms that carry an IPv4 address: mapped however written, NAT64, 6to4, Teredo", () => {
    for (const address of [
      // IPv4-mapped, as the URL parser writes it (hexadecimal groups) or expanded.
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "0:0:0:0:0:ffff:0a00:0001",
      "::ffff:10.0.0.1",
      // IPv4-compatible (deprecated) and SIIT.
      "::7f00:1",
      "::ffff:0:7f00:1",
      // NAT64: a gateway turns these into any IPv4 address, 127.0.0.1 or 169.254.169.254.
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::808:808",
      "64:ff9b:1::a00:1",
      "2002:7f00:1::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:db8::1",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it("lets public addresses through", () => {
    for (const address of [
      "93.184.216.34",
      "8.8.8.8",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "2a00:1450:4007:80e::200e",
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe("endpoint URLs", () => {
  const url = (value: string) => new URL(value);

  it("checks the address of an IP-literal URL itself, however the URL writes it", () => {
    for (const literal of [
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://[::ffff:127.0.0.1]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[::1]:8443/",
    ]) {
      expect(refusedLiteral(url(literal), "public")?.kind, literal).toBe("private");
      expect(refusedLiteral(url(literal), "any"), literal).toBeNull();
    }
    expect(refusedLiteral(url("https://8.8.8.8/"), "public")).toBeNull();
    // A name is checked by the lookup when connecting.
    expect(refusedLiteral(url("https://crm.example.com/"), "public")).toBeNull();
  });

  it("refuses a loopback host unless private addresses are allowed", async () => {
    expect(await checkEndpointUrl(url("https://127.0.0.1/"), false)).toEqual({ kind: "private" });
    expect(await checkEndpointUrl(url("https://localhost/"), false)).toEqual({ kind: "private" });
    expect(await checkEndpointUrl(url("https://[::1]/"), false)).toEqual({ kind: "private" });
    expect(await checkEndpointUrl(url("https://127.0.0.1/"), true)).toEqual({ kind: "ok" });
  });

  it("takes http:// only with WEBHOOK_ALLOW_PRIVATE, and then to private addresses only", async () => {
    expect(await checkEndpointUrl(url("http://127.0.0.1:8080/"), false)).toEqual({
      kind: "insecure",
    });
    expect(await checkEndpointUrl(url("http://127.0.0.1:8080/"), true)).toEqual({ kind: "ok" });
    expect(await checkEndpointUrl(url("http://localhost:8080/"), true)).toEqual({ kind: "ok" });
    expect(await checkEndpointUrl(url("http://8.8.8.8/"), true)).toEqual({ kind: "insecure" });
    expect(refusedLiteral(url("http://8.8.8.8/"), "private")?.message).toMatch(/https:\/\/ requis/);
  });
});
