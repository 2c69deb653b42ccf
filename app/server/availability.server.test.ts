import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./availability.server";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("database unavailability", () => {
  it("recognises network failures and PostgreSQL shutdown codes, also as causes", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P01"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("Failed query: select 1", { cause: withCode("ECONNRESET") })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]),
      ),
    ).toBe(true);
  });

  it("leaves real bugs to the 500 page", () => {
    expect(isDatabaseUnavailable(withCode("42P01", 'relation "offers" does not exist'))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(withCode("23505"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
