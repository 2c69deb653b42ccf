import { describe, expect, it } from "vitest";
import { checkEndpointHost, isPrivateAddress } from "./webhook-address.server";

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
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "not-an-ip",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it("lets public addresses through", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe("checkEndpointHost", () => {
  it("refuses a loopback host unless private addresses are allowed", async () => {
    expect(await checkEndpointHost("127.0.0.1", false)).toEqual({ kind: "private" });
    expect(await checkEndpointHost("localhost", false)).toEqual({ kind: "private" });
    expect(await checkEndpointHost("[::1]", false)).toEqual({ kind: "private" });
    expect(await checkEndpointHost("127.0.0.1", true)).toEqual({ kind: "ok" });
  });
});
