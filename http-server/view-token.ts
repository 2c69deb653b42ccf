import { randomUUID } from "node:crypto";
import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A stored page that carries a per-view token (the contact form's submission token, decision 022):
 * the same bytes for everyone around one token, which each answer replaces with a fresh UUID. The
 * gzip copy is made once too: the page before the token is compressed up to a byte boundary
 * (Z_SYNC_FLUSH), the token goes in a stored (uncompressed) deflate block, the page after it is an
 * independent final deflate stream; each answer only adds the header, the token and the trailer
 * (CRC-32 carried on from the stored prefix's, and the length). One valid gzip member (RFC 1951,
 * 1952): no per-view compression, whatever the page's size.
 */
export type ViewTokenPage = {
  prefix: Buffer;
  suffix: Buffer;
  gzip?: { prefix: Buffer; suffix: Buffer; prefixCrc: number };
  bytes: number;
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const TOKEN_LENGTH = randomUUID().length;

/** Splits a page at its one token; undefined when the token is not there exactly once. */
export function splitViewTokenPage(html: string, token: string): ViewTokenPage | undefined {
  const at = html.indexOf(token);
  if (token.length !== TOKEN_LENGTH || at === -1 || html.indexOf(token, at + 1) !== -1) {
    return undefined;
  }
  const prefix = Buffer.from(html.slice(0, at));
  const suffix = Buffer.from(html.slice(at + token.length));
  const page: ViewTokenPage = { prefix, suffix, bytes: prefix.length + suffix.length };
  if (page.bytes >= 1024) {
    const gzip = {
      prefix: deflateRawSync(prefix, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }),
      suffix: deflateRawSync(suffix, { level: 6 }),
      prefixCrc: crc32(prefix),
    };
    page.gzip = gzip;
    page.bytes += gzip.prefix.length + gzip.suffix.length;
  }
  return page;
}

/** The page with a fresh token: identity, or one gzip member. */
export function viewTokenBody(page: ViewTokenPage, gzip: boolean): Buffer[] {
  const token = Buffer.from(randomUUID());
  if (!gzip || !page.gzip) return [page.prefix, token, page.suffix];
  const stored = Buffer.from([0, token.length, 0, ~token.length & 0xff, 0xff]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(page.suffix, crc32(token, page.gzip.prefixCrc)), 0);
  trailer.writeUInt32LE((page.prefix.length + token.length + page.suffix.length) >>> 0, 4);
  return [GZIP_HEADER, page.gzip.prefix, stored, token, page.gzip.suffix, trailer];
}
