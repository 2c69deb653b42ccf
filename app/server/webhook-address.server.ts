import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses an endpoint may not reach unless WEBHOOK_ALLOW_PRIVATE=true: loopback, private,
 * link-local (cloud metadata), shared, unspecified, multicast and reserved ranges, in IPv4 and IPv6
 * (IPv4-mapped IPv6 addresses are checked as IPv4).
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`Adresse privée ou locale refusée pour ${host}`);
    this.name = "PrivateAddressError";
  }
}

/**
 * A DNS lookup for node:http that refuses private addresses: the address checked is the one
 * connected to, so a name that resolves differently later (DNS rebinding) is still refused.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const allowed = allowPrivate
        ? addresses
        : addresses.filter((a) => !isPrivateAddress(a.address));
      if (allowed.length === 0) return callback(new PrivateAddressError(hostname), "", 0);
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

export type EndpointAddressCheck = { kind: "ok" } | { kind: "private" } | { kind: "unresolvable" };

/** Whether an endpoint's host may be reached, as the delivery will check it. */
export function checkEndpointHost(
  hostname: string,
  allowPrivate: boolean,
): Promise<EndpointAddressCheck> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve) => {
    guardedLookup(allowPrivate)(host, { all: true }, (error) => {
      if (!error) resolve({ kind: "ok" });
      else resolve({ kind: error instanceof PrivateAddressError ? "private" : "unresolvable" });
    });
  });
}
