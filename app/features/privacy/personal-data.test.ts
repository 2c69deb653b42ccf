import { expect, test } from "vitest";
import { erasureFormSchema, exportFileName, personalDataEmailSchema } from "./personal-data";

test("an address is trimmed and checked, with a French message", () => {
  expect(personalDataEmailSchema.parse("  Jean.Dupont@Example.fr ")).toBe("Jean.Dupont@Example.fr");
  const missing = personalDataEmailSchema.safeParse("  ");
  expect(missing.success || missing.error.issues[0].message).toBe(
    "Veuillez saisir l'adresse e-mail de la personne concernée.",
  );
  for (const bad of ["jean", "jean@", "a b@example.fr", `${"a".repeat(250)}@example.fr`]) {
    const parsed = personalDataEmailSchema.safeParse(bad);
    expect(parsed.success || parsed.error.issues[0].message).toBe(
      "Veuillez saisir une adresse e-mail valide.",
    );
  }
  expect(personalDataEmailSchema.safeParse(undefined).success).toBe(false);
});

test("the erasure form needs intent=erase; confirm is yes or absent", () => {
  expect(erasureFormSchema.parse({ intent: "erase", email: "a@example.fr" })).toEqual({
    intent: "erase",
    email: "a@example.fr",
  });
  expect(erasureFormSchema.safeParse({ intent: "delete", email: "a@example.fr" }).success).toBe(
    false,
  );
  expect(
    erasureFormSchema.safeParse({ intent: "erase", email: "a@example.fr", confirm: "1" }).success,
  ).toBe(false);
});

test("the export's file name holds the date, never the address", () => {
  expect(exportFileName(new Date("2026-11-23T10:00:00Z"))).toBe(
    "donnees-personnelles-2026-11-23.json",
  );
  expect(exportFileName(new Date("2026-11-23T23:30:00Z"))).toBe(
    "donnees-personnelles-2026-11-24.json",
  );
});
