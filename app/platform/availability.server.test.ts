import { readFileSync } from "node:fs";
import { connect } from "node:net";
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

  it("tells a missing file (a bug, 500) from a missing unix socket (the server is down, 503)", async () => {
    let missingFile: unknown;
    try {
      readFileSync("/nonexistent/migration.sql");
    } catch (error) {
      missingFile = error;
    }
    expect((missingFile as { code?: string }).code).toBe("ENOENT");
    expect(isDatabaseUnavailable(missingFile)).toBe(false);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: missingFile }))).toBe(
      false,
    );

    const socketGone = await new Promise<unknown>((resolve) => {
      connect("/nonexistent/.s.PGSQL.5432").on("error", resolve);
    });
    expect((socketGone as { code?: string }).code).toBe("ENOENT");
    expect(isDatabaseUnavailable(socketGone)).toBe(true);
  });
});
