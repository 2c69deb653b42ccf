import { describe, expect, it } from "vitest";
import {
  alertConfirmUrl,
  alertsWaitingLabel,
  alertsWaitingNote,
  alertUnsubscribeUrl,
  confirmedDescription,
  listUnsubscribeHeaders,
} from "./alerts";

describe("alert links", () => {
  it("puts the token in the query of the site's address", () => {
    expect(alertConfirmUrl("https://serveurs.example.fr/", "a-b_c")).toBe(
      "https://serveurs.example.fr/alertes/confirmer?jeton=a-b_c",
    );
    expect(alertUnsubscribeUrl("https://serveurs.example.fr", "tok")).toBe(
      "https://serveurs.example.fr/alertes/desinscription?jeton=tok",
    );
  });

  it("gives the one-click unsubscribe headers of RFC 8058", () => {
    expect(listUnsubscribeHeaders("https://x.example/alertes/desinscription?jeton=t")).toEqual({
      "List-Unsubscribe": "<https://x.example/alertes/desinscription?jeton=t>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });
});

describe("alert copy", () => {
  it("counts the alerts waiting in French", () => {
    expect(alertsWaitingLabel(1)).toBe("1 alerte en attente");
    expect(alertsWaitingLabel(12)).toBe("12 alertes en attente");
    expect(alertsWaitingNote(0)).toBe("Aucune alerte « Me prévenir » en attente sur cette offre.");
    expect(alertsWaitingNote(2)).toMatch(/^2 alertes en attente/);
  });

  it("says whether the offer is already back once confirmed", () => {
    expect(confirmedDescription("Serveur A", false)).toBe(
      "Nous vous écrirons une seule fois, dès que « Serveur A » sera de nouveau disponible.",
    );
    expect(confirmedDescription("Serveur A", true)).toMatch(/déjà de nouveau disponible/);
  });
});
