import { describe, expect, it } from "vitest";
import { ensureCanonicalQuery } from "./canonical-query";

const KEYS = ["q", "page"];
const check = (query: string, canonical: string) => () =>
  ensureCanonicalQuery(new URLSearchParams(query), KEYS, canonical, `/list${canonical}`);

describe("ensureCanonicalQuery", () => {
  it("lets the canonical address through, ignoring parameters the page does not read", () => {
    expect(check("", "")).not.toThrow();
    expect(check("q=a&page=2", "?q=a&page=2")).not.toThrow();
    expect(check("q=a&utm_source=x", "?q=a")).not.toThrow();
  });

  it("redirects empty fields, other orders and other spellings to the canonical address", () => {
    for (const [query, canonical] of [
      ["q=&page=", ""],
      ["page=2&q=a", "?q=a&page=2"],
      ["q=a&page=1", "?q=a"],
    ]) {
      let thrown: unknown;
      try {
        check(query, canonical)();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, query).toBeInstanceOf(Response);
      expect((thrown as Response).headers.get("Location")).toBe(`/list${canonical}`);
    }
  });

  it("keeps the visit's origin (src) in the address it redirects to", () => {
    let thrown: unknown;
    try {
      check("src=newsletter~~novembre&q=a&page=", "?q=a")();
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).headers.get("Location")).toBe("/list?q=a&src=newsletter~~novembre");
  });
});
