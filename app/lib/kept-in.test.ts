import { describe, expect, it } from "vitest";
import { keptIn } from "./kept-in";

describe("keptIn", () => {
  it("makes a value once per key and keeps at most max keys, the oldest out first", () => {
    const map = new Map<string, number>();
    let made = 0;
    const get = (key: string) => keptIn(map, key, 2, () => ++made);
    expect([get("a"), get("a"), get("b")]).toEqual([1, 1, 2]);
    expect(get("c")).toBe(3);
    expect([...map.keys()]).toEqual(["b", "c"]);
    expect(get("a")).toBe(4); // made again: it had left
  });
});
