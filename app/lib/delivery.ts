import type { DeliveryState } from "./offer-fields";

// When an offer can be delivered (issue 21): one wording for cards, pages, mails and JSON-LD.

export type DeliverySource = { delivery: DeliveryState; deliveryDays: number | null };

/** 'En stock — livraison sous 24 h', 'Sur commande — 10 jours', 'Épuisé'. */
export function deliveryLabel({ delivery, deliveryDays }: DeliverySource): string {
  switch (delivery) {
    case "stock_24h":
      return "En stock — livraison sous 24 h";
    case "stock_72h":
      return "En stock — livraison sous 72 h";
    case "on_order":
      return deliveryDays
        ? `Sur commande — ${deliveryDays} ${deliveryDays > 1 ? "jours" : "jour"}`
        : "Sur commande";
    case "sold_out":
      return "Épuisé";
  }
}

/** Deliverable now: the listing's `available=1`. */
export const AVAILABLE_NOW: readonly DeliveryState[] = ["stock_24h", "stock_72h"];

export function isSoldOut({ delivery }: DeliverySource): boolean {
  return delivery === "sold_out";
}

/** The schema.org availability of the offer's JSON-LD. */
export function schemaOrgAvailability({ delivery }: DeliverySource): string {
  const map: Record<DeliveryState, string> = {
    stock_24h: "InStock",
    stock_72h: "InStock",
    on_order: "BackOrder",
    sold_out: "OutOfStock",
  };
  return `https://schema.org/${map[delivery]}`;
}

/** The badge's tone: green in stock, amber on order, grey sold out. */
export function deliveryTone({ delivery }: DeliverySource): "ok" | "wait" | "none" {
  return AVAILABLE_NOW.includes(delivery) ? "ok" : delivery === "on_order" ? "wait" : "none";
}
