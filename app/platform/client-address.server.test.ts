import { describe, expect, it } from "vitest";
import { clientSubject, expandIPv6 } from "./client-address.server";

describe("clientSubject", () => {
  it("keeps IPv4 addresses and unwraps IPv4-mapped IPv6", () => {
    expect(clientSubject("203.0.113.7")).toBe("203.0.113.7");
    expect(clientSubject("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one client", () => {
    const a = clientSubject("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    const b = clientSubject("2001:0db8:0001:0002::1");
    expect(a).toBe("2001:db8:1:2::/64");
    expect(b).toBe(a);
    expect(clientSubject("2001:db8:1:3::1")).not.toBe(a);
    expect(clientSubject("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps anything else short", () => {
    expect(clientSubject("unknown")).toBe("unknown");
    expect(clientSubject("x".repeat(200))).toHaveLength(64);
  });
});

describe("expandIPv6", () => {
  it("fills the elided groups and converts a dotted tail", () => {
    expect(expandIPv6("fe80::1%eth0")).toEqual(["fe80", "0", "0", "0", "0", "0", "0", "1"]);
    expect(expandIPv6("64:ff9b::192.0.2.1")).toEqual([
      "64",
      "ff9b",
      "0",
      "0",
      "0",
      "0",
      "c000",
      "201",
    ]);
  });
});
