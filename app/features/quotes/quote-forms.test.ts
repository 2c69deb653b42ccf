import { describe, expect, it } from "vitest";
import { quoteAnswerSchema, quoteSendInput, quoteSendSchema } from "./quote-forms";

describe("quoteSendSchema", () => {
  it("reads the validity and the discounts, 30 days and none by default", () => {
    const parsed = quoteSendInput(
      quoteSendSchema.parse({ validity: "", discount0: "10", discount1: "12,5" }),
    );
    expect(parsed.validityDays).toBe(30);
    expect(parsed.discounts.slice(0, 3)).toEqual([10, 12.5, 0]);
  });

  it("refuses a discount above 100 % or a validity of 0 days, in French", () => {
    expect(quoteSendSchema.safeParse({ discount0: "150" }).error?.issues[0].message).toMatch(
      /pourcentage/,
    );
    expect(quoteSendSchema.safeParse({ validity: "0" }).error?.issues[0].message).toMatch(
      /un jour/,
    );
  });
});

describe("quoteAnswerSchema", () => {
  it("needs a name, a role and the box ticked to accept", () => {
    expect(
      quoteAnswerSchema.safeParse({ intent: "accept", name: "Jean", role: "DG", agree: "on" })
        .success,
    ).toBe(true);
    expect(
      quoteAnswerSchema.safeParse({ intent: "accept", name: "Jean", role: "DG" }).error?.issues[0]
        .message,
    ).toMatch(/Cochez la case/);
  });

  it("declines with or without a reason, the refusal confirmed by its box", () => {
    expect(quoteAnswerSchema.parse({ intent: "decline", confirm: "on", reason: " " })).toEqual({
      intent: "decline",
      confirm: "on",
      reason: null,
    });
    expect(
      quoteAnswerSchema.safeParse({ intent: "decline", reason: "Trop cher" }).error?.issues[0]
        .message,
    ).toBe("Cochez la case pour confirmer le refus du devis.");
  });
});
