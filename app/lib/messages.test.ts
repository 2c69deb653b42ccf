import { describe, expect, it } from "vitest";
import { ERROR_MESSAGES, errorCopy, retryInMinutes } from "./messages";

describe("errorCopy", () => {
  it("gives each status a visitor can meet its own page", () => {
    expect(errorCopy(413)).toBe(ERROR_MESSAGES.tooLarge);
    expect(errorCopy(429)).toBe(ERROR_MESSAGES.tooManyRequests);
    expect(errorCopy(503)).toBe(ERROR_MESSAGES.unavailable);
  });

  it("reads other client errors as a bad request, anything else as unexpected", () => {
    expect(errorCopy(418)).toBe(ERROR_MESSAGES.badRequest);
    expect(errorCopy(502)).toBe(ERROR_MESSAGES.unexpected);
    expect(errorCopy(undefined)).toBe(ERROR_MESSAGES.unexpected);
  });

  it("puts the limit in the HTTP layer's 413 page", () => {
    expect(ERROR_MESSAGES.tooLargeLimit(64).detail).toBe(
      "Les données envoyées dépassent la taille maximale autorisée (64 Ko).",
    );
  });
});

describe("retryInMinutes", () => {
  it("rounds the wait up to whole minutes, at least one, plural above one", () => {
    expect(retryInMinutes(0)).toBe("Veuillez réessayer dans 1 minute.");
    expect(retryInMinutes(60)).toBe("Veuillez réessayer dans 1 minute.");
    expect(retryInMinutes(61)).toBe("Veuillez réessayer dans 2 minutes.");
    expect(retryInMinutes(900)).toBe("Veuillez réessayer dans 15 minutes.");
  });
});
