import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, open, seal } from "./secret-box.server";

const key = randomBytes(32);

describe("secret box", () => {
  it("encrypts with a fresh nonce each time and reads back with the same key and context", () => {
    const first = seal("JBSWY3DPEHPK3PXP", key, "user:7");
    const second = seal("JBSWY3DPEHPK3PXP", key, "user:7");
    expect(isSealed(first)).toBe(true);
    expect(first).not.toContain("JBSWY3DPEHPK3PXP");
    expect(first).not.toBe(second);
    expect(open(first, key, "user:7")).toBe("JBSWY3DPEHPK3PXP");
  });

  it("reads nothing with another key, another row, no key, or an altered value", () => {
    const sealed = seal("JBSWY3DPEHPK3PXP", key, "user:7");
    expect(open(sealed, randomBytes(32), "user:7")).toBeNull();
    expect(open(sealed, key, "user:8")).toBeNull();
    expect(open(sealed, undefined, "user:7")).toBeNull();
    const altered = `${sealed.slice(0, -4)}AAA=`;
    expect(open(altered, key, "user:7")).toBeNull();
    expect(open("v1:AAAA", key, "user:7")).toBeNull();
  });

  it("keeps a value in clear without a key, and reads a value stored in clear as is", () => {
    expect(seal("JBSWY3DPEHPK3PXP", undefined, "user:7")).toBe("JBSWY3DPEHPK3PXP");
    expect(open("JBSWY3DPEHPK3PXP", key, "user:7")).toBe("JBSWY3DPEHPK3PXP");
  });
});
