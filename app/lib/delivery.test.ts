import { describe, expect, it } from "vitest";
import { deliveryLabel, deliveryTone, isSoldOut, schemaOrgAvailability } from "./offer-fields";

describe("delivery", () => {
  it("words each state as the catalogue shows it", () => {
    expect(deliveryLabel({ delivery: "stock_24h", deliveryDays: null })).toBe(
      "En stock — livraison sous 24 h",
    );
    expect(deliveryLabel({ delivery: "stock_72h", deliveryDays: null })).toBe(
      "En stock — livraison sous 72 h",
    );
    expect(deliveryLabel({ delivery: "on_order", deliveryDays: 10 })).toBe(
      "Sur commande — 10 jours",
    );
    expect(deliveryLabel({ delivery: "sold_out", deliveryDays: null })).toBe("Épuisé");
  });

  it("gives schema.org availability and tone", () => {
    expect(schemaOrgAvailability({ delivery: "stock_72h", deliveryDays: null })).toBe(
      "https://schema.org/InStock",
    );
    expect(schemaOrgAvailability({ delivery: "on_order", deliveryDays: 5 })).toBe(
      "https://schema.org/BackOrder",
    );
    expect(schemaOrgAvailability({ delivery: "sold_out", deliveryDays: null })).toBe(
      "https://schema.org/OutOfStock",
    );
    expect(isSoldOut({ delivery: "sold_out", deliveryDays: null })).toBe(true);
    expect(deliveryTone({ delivery: "on_order", deliveryDays: 5 })).toBe("wait");
  });
});
