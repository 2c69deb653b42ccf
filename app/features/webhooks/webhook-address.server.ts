import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { expandIPv6 } from "~/platform/client-address.server";

/**
 * Addresses an endpoint may not reach unless WEBHOOK_ALLOW_PRIVATE=true: loopback, private,
 * link-local (cloud metadata), shared, unspecified, documentation, benchmarking, multicast and
 * reserved ranges, in IPv4 and IPv6. IPv6 forms that carry an IPv4 address are checked as that
 * address (IPv4-mapped `::ffff:a.b.c.d`, however written) or refused whole, since the IPv4 address
 * they reach is chosen by a gateway we do not see: IPv4-compatible `::/96`, SIIT `::ffff:0:0:0/96`,
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo and the other IETF
 * assignments `2001::/23`.
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
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `::ffff:7f00:1`) stands for. */
function mappedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address).map((g) => parseInt(g, 16));
  if (groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return undefined;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
}

/** Whether `address` (an IP literal, IPv6 with or without brackets) is one endpoints may not reach. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[(.*)\]$/, "$1").split("%")[0];
  const family = isIP(ip);
  if (family === 0) return true;
  if (family === 4) return PRIVATE.check(ip, "ipv4");
  const mapped = mappedIPv4(ip);
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  return PRIVATE.check(ip, "ipv6");
}

/**
 * Which addresses an endpoint's URL may reach. `https://`: public ones, and private ones too with
 * WEBHOOK_ALLOW_PRIVATE. `http://`: only with WEBHOOK_ALLOW_PRIVATE, and only private ones (tests,
 * an intranet CRM): a payload in clear never crosses the internet. null: not allowed at all.
 */
export type AddressRule = "public" | "any" | "private";

export function addressRule(url: URL, allowPrivate: boolean): AddressRule | null {
  if (url.protocol === "https:") return allowPrivate ? "any" : "public";
  if (url.protocol === "http:" && allowPrivate) return "private";
  return null;
}

function allowedBy(rule: AddressRule, address: string): boolean {
  if (rule === "any") return true;
  return isPrivateAddress(address) === (rule === "private");
}

/** A refused address: private (`https://` without WEBHOOK_ALLOW_PRIVATE) or public in `http://`. */
export class RefusedAddressError extends Error {
  readonly kind: "private" | "insecure";

  constructor(host: string, rule: AddressRule | null) {
    const insecure = rule !== "public";
    super(
      insecure
        ? `Adresse refusée en http:// pour ${host} : https:// requis`
        : `Adresse privée ou locale refusée pour ${host}`,
    );
    this.name = "RefusedAddressError";
    this.kind = insecure ? "insecure" : "private";
  }
}

/**
 * A DNS lookup for node:http that keeps only the addresses `rule` allows: the address checked is
 * the one connected to, so a name that resolves differently later (DNS rebinding) is still refused.
 * node:http does not call it for an IP literal: checkLiteralHost does that.
 */
export function guardedLookup(rule: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const allowed = addresses.filter((a) => allowedBy(rule, a.address));
      if (allowed.length === 0) return callback(new RefusedAddressError(hostname, rule), "", 0);
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** The URL's host without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * The refusal of a URL whose host is an IP literal (`https://127.0.0.1/`, `https://[::ffff:a00:1]/`),
 * which node:http connects to without a lookup; null when it may be reached or is a name.
 */
export function refusedLiteral(url: URL, rule: AddressRule | null): RefusedAddressError | null {
  const host = urlHost(url);
  if (rule === null) return new RefusedAddressError(host, rule);
  if (isIP(host) === 0 || allowedBy(rule, host)) return null;
  return new RefusedAddressError(host, rule);
}

export type EndpointAddressCheck =
  { kind: "ok" } | { kind: "private" } | { kind: "insecure" } | { kind: "unresolvable" };

/** Whether an endpoint's URL may be reached, as the delivery will check it. */
export function checkEndpointUrl(url: URL, allowPrivate: boolean): Promise<EndpointAddressCheck> {
  const rule = addressRule(url, allowPrivate);
  const literal = refusedLiteral(url, rule);
  if (literal) return Promise.resolve({ kind: literal.kind });
  if (rule === null) return Promise.resolve({ kind: "insecure" });
  return new Promise((resolve) => {
    guardedLookup(rule)(urlHost(url), { all: true }, (error) => {
      if (!error) resolve({ kind: "ok" });
      else
        resolve(
          error instanceof RefusedAddressError ? { kind: error.kind } : { kind: "unresolvable" },
        );
    });
  });
}
