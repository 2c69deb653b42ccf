import { isIPv4, isIPv6 } from "node:net";

/**
 * The subject of a per-client limit: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber gets a whole /64 and picks any address in it), an IPv4-mapped IPv6 address as IPv4.
 */
export function clientSubject(address: string): string {
  const ip = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip.slice(0, 64) || "unknown";
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (zone and dotted tail handled). */
export function expandIPv6(address: string): string[] {
  let ip = address.split("%")[0];
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    ip =
      ip.slice(0, -dotted[1].length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = ip.includes("::") ? ip.split("::") : [ip, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) =>
    parseInt(group || "0", 16).toString(16),
  );
}
