import { describe, expect, it } from "vitest";
import { FREE_ACCOUNT_FAILURES, MAX_SIGN_IN_DELAY_MS, signInDelayMs } from "./sign-in-delay";

describe("signInDelayMs", () => {
  it("lets the first failures through at once, then doubles up to a cap", () => {
    expect(signInDelayMs(0)).toBe(0);
    expect(signInDelayMs(FREE_ACCOUNT_FAILURES - 1)).toBe(0);
    expect(signInDelayMs(FREE_ACCOUNT_FAILURES)).toBe(1000);
    expect(signInDelayMs(FREE_ACCOUNT_FAILURES + 1)).toBe(2000);
    expect(signInDelayMs(FREE_ACCOUNT_FAILURES + 2)).toBe(4000);
    expect(signInDelayMs(1_000)).toBe(MAX_SIGN_IN_DELAY_MS);
  });
});
