import { describe, expect, it } from "vitest";
import { configurationKey, parseConfigurationQuery } from "./configuration-query-schema";

describe("parseConfigurationQuery", () => {
  it("keeps the options and the duration, leaves other parameters aside", () => {
    const parsed = parseConfigurationQuery("o0=1&o2=4&duree=36&utm_source=x");
    expect(parsed.success && parsed.params.toString()).toBe("o0=1&o2=4&duree=36");
  });

  it("refuses a choice that is not a small whole number, in French", () => {
    for (const query of ["o0=abc", "o1=-1", "duree=12345", "o0=1.5", `o0=${"9".repeat(700)}`]) {
      const parsed = parseConfigurationQuery(query);
      expect(parsed.success, query).toBe(false);
      if (!parsed.success) expect(parsed.message).toMatch(/configuration demandée/);
    }
  });

  it("refuses more parameters than an offer has groups", () => {
    const query = Array.from({ length: 20 }, (_, i) => `o${i}=1`).join("&");
    expect(parseConfigurationQuery(query).success).toBe(false);
  });
});

describe("configurationKey", () => {
  const key = (query: string) => configurationKey(new URLSearchParams(query));

  it("spells one configuration one way: names in order, no leading zeros", () => {
    expect(key("o2=4&o0=1&duree=36")).toBe("duree=36&o0=1&o2=4");
    expect(key("o0=01&o2=0004")).toBe(key("o2=4&o0=1"));
    expect(key("")).toBe("");
  });

  it("keeps the first value of a repeated parameter, as the offer page reads it", () => {
    expect(key("o0=2&o0=1")).toBe("o0=2");
    expect(key("o0=1&o0=2")).not.toBe(key("o0=2&o0=1"));
  });
});
