import { describe, expect, it } from "vitest";
import {
  OFFER_FIELD_NAMES,
  OFFER_FIELDS,
  OFFER_FORM_DEFAULTS,
  OFFER_LIMITS,
  OFFER_NUMBER_FIELDS,
} from "~/lib/offer-fields";
import { offerFormValues, offerToFormValues } from "./offer-form";

describe("the offer field table", () => {
  it("gives every field a default: checkboxes false (active true), text empty, a dedicated server", () => {
    expect(Object.keys(OFFER_FORM_DEFAULTS)).toEqual(OFFER_FIELD_NAMES);
    expect(OFFER_FORM_DEFAULTS).toMatchObject({
      type: "dedicated",
      isActive: true,
      featured: false,
      title: "",
    });
  });

  it("derives the limits and the optional numbers from the fields", () => {
    expect(OFFER_LIMITS).toMatchObject({ title: 150, description: 20_000, priceMax: 1_000_000 });
    expect(OFFER_NUMBER_FIELDS).toEqual(
      expect.arrayContaining(["cpuCores", "setupFee", "loaMonths", "loaPurchaseOption"]),
    );
  });

  it("round-trips a stored offer through the form", () => {
    const stored = Object.fromEntries(
      OFFER_FIELD_NAMES.map((f) => {
        const kind = OFFER_FIELDS[f].kind;
        if (kind === "options") return [f, [{ kind: "choice", label: "G", choices: [] }]];
        return [
          f,
          kind === "boolean" ? true : kind === "integer" ? 3 : f === "type" ? "loa" : `${f}-v`,
        ];
      }),
    ) as Parameters<typeof offerToFormValues>[0];
    const values = offerToFormValues(stored);
    const form = new FormData();
    for (const [k, v] of Object.entries(values))
      if (v !== false) form.set(k, v === true ? "on" : v);
    expect(offerFormValues(form)).toEqual(values);
    expect(offerToFormValues({ ...stored, network: null }).network).toBe("");
  });
});
