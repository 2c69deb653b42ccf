import { describe, expect, it } from "vitest";
import { retryDelaySeconds } from "./outbox-backoff";

describe("retryDelaySeconds", () => {
  it("doubles from 10 s after each failed attempt", () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 3600))).toEqual([10, 20, 40, 80]);
  });

  it("never exceeds the configured cap, even after many attempts", () => {
    expect(retryDelaySeconds(6, 300)).toBe(300);
    expect(retryDelaySeconds(5_000, 300)).toBe(300);
    expect(retryDelaySeconds(1, 1)).toBe(1);
  });

  it("treats a first claim without failure like the first retry", () => {
    expect(retryDelaySeconds(0, 300)).toBe(10);
  });
});
