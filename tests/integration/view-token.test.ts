import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { splitViewTokenPage, viewTokenBody } from "../../http-server/view-token";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a stored page with a per-view token", () => {
  const token = randomUUID();
  const before = `<html><body>${"<option>Serveur é</option>".repeat(2000)}<input value="`;
  const after = `"><footer>${"pied ".repeat(300)}</footer></body></html>`;
  const page = splitViewTokenPage(`${before}${token}${after}`, token)!;

  it("answers each view with a fresh token, identity and gzip", () => {
    const seen = new Set<string>();
    for (const gzip of [false, true, false, true]) {
      const body = Buffer.concat(viewTokenBody(page, gzip));
      const html = (gzip ? gunzipSync(body) : body).toString();
      expect(html.startsWith(before) && html.endsWith(after)).toBe(true);
      const fresh = html.slice(before.length, html.length - after.length);
      expect(fresh).toMatch(UUID);
      expect(fresh).not.toBe(token);
      seen.add(fresh);
    }
    expect(seen.size).toBe(4);
    // Compressed once: far smaller than the page.
    expect(page.gzip!.prefix.length).toBeLessThan(before.length / 10);
  });

  it("keeps no page whose token is missing or repeated", () => {
    expect(splitViewTokenPage("<p>none</p>", token)).toBeUndefined();
    expect(splitViewTokenPage(`${token}${token}`, token)).toBeUndefined();
  });
});
