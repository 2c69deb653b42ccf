import { describe, expect, it } from "vitest";
import activeSas from "../../../tests/support/sirene/active-sas.json";
import closedSarl from "../../../tests/support/sirene/closed-sarl.json";
import notFound from "../../../tests/support/sirene/not-found.json";
import {
  closedWarning,
  companyFromAnswer,
  companySummary,
  legalFormLabel,
} from "./company-lookup.server";

// The answers of the API Recherche d'entreprises as recorded (tests/support/sirene/): what the
// contact form takes from them, and what it refuses to believe.

const ACME = "732829320";
const CLOSED = "812345676";

/** The recorded SAS with its first result changed. */
function acmeWith(fields: Record<string, unknown>) {
  const [result] = structuredClone(activeSas).results;
  return { ...activeSas, results: [{ ...result, ...fields }] };
}

describe("companyFromAnswer", () => {
  it("reads an active SAS and its head office", () => {
    expect(companyFromAnswer(activeSas, ACME)).toEqual({
      siren: ACME,
      name: "ACME SAS",
      legalForm: "SAS",
      address: "12 RUE DE LA PAIX 75002 PARIS",
      headOffice: true,
      closed: false,
    });
  });

  it("reads a closed company and the day it closed", () => {
    expect(companyFromAnswer(closedSarl, CLOSED)).toEqual({
      siren: CLOSED,
      name: "ANCIENNE FONDERIE DUPONT",
      legalForm: "SARL",
      address: "4 QUAI DES CELESTINS 69002 LYON",
      headOffice: true,
      closed: true,
      closedOn: "2023-03-31",
    });
  });

  it("says null when the register has no such company", () => {
    expect(companyFromAnswer(notFound, ACME)).toBeNull();
    // Another company's answer does not name this SIREN.
    expect(companyFromAnswer(activeSas, CLOSED)).toBeNull();
  });

  it("names a person's business by the person, and says what it is", () => {
    const company = companyFromAnswer(
      acmeWith({
        nom_raison_sociale: null,
        nom_complet: "JEANNE MARTIN",
        nature_juridique: "1000",
      }),
      ACME,
    );
    expect(company).toMatchObject({ name: "JEANNE MARTIN", legalForm: "Entrepreneur individuel" });
  });

  it("keeps nothing the register does not publish", () => {
    const hidden = "[NON-DIFFUSIBLE]";
    const siege = { ...activeSas.results[0].siege, adresse: hidden, code_postal: hidden };
    const company = companyFromAnswer(acmeWith({ siege }), ACME);
    expect(company?.address).toBe("PARIS");
    expect(
      companyFromAnswer(acmeWith({ nom_raison_sociale: hidden, nom_complet: hidden }), ACME),
    ).toBeNull();
  });

  it("cleans what it shows: control characters, runs of spaces, lengths", () => {
    const company = companyFromAnswer(
      acmeWith({ nom_raison_sociale: `  ACME\u0000\n  SAS ${"X".repeat(400)}` }),
      ACME,
    );
    expect(company?.name.startsWith("ACME SAS X")).toBe(true);
    expect(company?.name.length).toBeLessThanOrEqual(200);
    expect(company?.name).toBe(`ACME SAS ${"X".repeat(191)}`);
  });

  it("leaves out a legal form or a closing day it cannot read", () => {
    const company = companyFromAnswer(
      acmeWith({ nature_juridique: "SAS", etat_administratif: "C", date_fermeture: "31/03/2023" }),
      ACME,
    );
    expect(company).toMatchObject({ closed: true });
    expect(company).not.toHaveProperty("legalForm");
    expect(company).not.toHaveProperty("closedOn");
    // The head office's day, when the company's own is not given.
    const siege = { ...activeSas.results[0].siege, date_fermeture: "2024-01-15" };
    const closed = acmeWith({ etat_administratif: "C", date_fermeture: null, siege });
    expect(companyFromAnswer(closed, ACME)?.closedOn).toBe("2024-01-15");
  });

  it("says undefined for an answer the API does not give", () => {
    for (const body of [
      null,
      "ACME SAS",
      {},
      { results: "ACME" },
      { results: [], total_results: -1 },
      acmeWith({ nom_raison_sociale: 42 }),
      acmeWith({ siren: ACME, siege: "12 rue de la Paix" }),
      acmeWith({ siren: ACME, nom_complet: ["ACME"], nom_raison_sociale: null }),
    ]) {
      expect(companyFromAnswer(body, ACME), JSON.stringify(body)?.slice(0, 80)).toBeUndefined();
    }
  });
});

describe("legalFormLabel", () => {
  it("says the common legal forms as people do, and the code of the others", () => {
    expect(
      ["5710", "5720", "5499", "5498", "5599", "1000", "6540", "9220"].map(legalFormLabel),
    ).toEqual([
      "SAS",
      "SASU",
      "SARL",
      "EURL",
      "SA",
      "Entrepreneur individuel",
      "SCI",
      "Association",
    ]);
    expect(legalFormLabel("5385")).toBe("Forme juridique 5385");
  });
});

describe("the line under the SIREN", () => {
  it("names the company, its form and its head office, or warns that it closed", () => {
    const acme = companyFromAnswer(activeSas, ACME)!;
    expect(companySummary(acme)).toBe("ACME SAS — SAS, 12 RUE DE LA PAIX 75002 PARIS (siège)");
    expect(closedWarning(acme)).toBeUndefined();
    const closed = companyFromAnswer(closedSarl, CLOSED)!;
    expect(closedWarning(closed)).toBe("Cette entreprise est fermée depuis le 31/03/2023.");
    expect(closedWarning({ ...closed, closedOn: undefined })).toBe("Cette entreprise est fermée.");
    expect(companySummary({ siren: ACME, name: "ACME", headOffice: false, closed: false })).toBe(
      "ACME",
    );
  });
});
