// What the admin cases share: form tables, the administrator's requests, messages, credentials.
import { RESET_MESSAGES } from "../../../app/features/accounts/password-reset";
import { urlencoded } from "../harness/http";
import { post, type HostileCase, type OrFn, type Vars } from "./cases";
import type { Snapshot } from "./run";

/** One row of a form table: its label, the fields it posts, the status and message it must get. */
export type FormRow = readonly [
  label: string,
  fields: Readonly<Record<string, string>>,
  status: number,
  message: string | RegExp,
];

/** One case per row: `${name} ${label}`, the row's fields over `base` posted to `path` as admin. */
export function adminForms(
  name: string,
  path: string,
  base: OrFn<Record<string, string>>,
  rows: FormRow[],
): HostileCase[] {
  return rows.map(([label, fields, status, message]) =>
    adminPost(
      `${name} ${label}`,
      path,
      typeof base === "function"
        ? (v) => urlencoded({ ...base(v), ...fields })
        : urlencoded({ ...base, ...fields }),
      { status, message },
    ),
  );
}

/** A page read by the signed-in administrator. */
export const adminGet = (
  name: string,
  path: string,
  expect: HostileCase["expect"],
): HostileCase => ({
  name,
  path,
  as: "admin",
  expect,
});

/** A form posted by the signed-in administrator. */
export const adminPost = (...[name, path, body, expect, more]: Parameters<typeof post>) =>
  post(name, path, body, expect, { as: "admin", ...more });

export const ADMIN_CREDENTIALS = {
  email: "securite@example.fr",
  password: "un mot de passe de test assez long",
};

export const M = {
  missing: "Veuillez remplir tous les champs obligatoires",
  invalid: "Requête invalide",
  offerGone: "Cette offre n'existe plus.",
  statusInvalid: "Statut ou demande non valide.",
  contactGone: "Cette demande n'existe plus.",
  mailRetryInvalid: "Demande de relance non valide.",
  mailNotFailed: "Cet e-mail n'est plus en échec.",
  unauthorized: "Votre session a expiré ou vous n'êtes pas connecté.",
  quoteValidity: "La validité est un nombre entier de jours.",
  quoteDiscount: "Une remise est un pourcentage entre 0 et 100.",
  wrongCredentials: "Email ou mot de passe incorrect.",
  missingCredentials: "Veuillez saisir votre email et votre mot de passe.",
  resetRequested: RESET_MESSAGES.requested,
  resetEmailInvalid: "L'adresse e-mail n'est pas valide.",
  resetLinkInvalid: RESET_MESSAGES.invalidLink,
  priceInvalid: "Le prix doit être un nombre positif avec au plus 2 décimales.",
  priceTooHigh: "Le prix ne doit pas dépasser",
  typeInvalid: "Le type d'offre n'est pas valide.",
  forbidden: (label: string) => `${label} contient des caractères non autorisés.`,
  // Thousands are separated by a narrow no-break space.
  cores: /Le nombre de cœurs doit être un nombre entier entre 1 et 4\s096\./,
  ram: /La RAM doit être un nombre entier de Go entre 1 et 65\s536\./,
  storage: /Le stockage doit être un nombre de To entre 0,01 et 100\s000 \(2 décimales au plus\)\./,
  bandwidth: /La bande passante doit être un nombre de Gbit\/s entre 0,01 et 10\s000/,
  setupFee: /Les frais de mise en service doivent être un montant entre 0 et 1\s000\s000 €/,
  loaMonths: "La durée doit être un nombre entier de mois entre 1 et 120.",
  loaOption: /L'option d'achat doit être un montant entre 0 et 1\s000\s000 €/,
  loaOnly: "Réservé aux offres de type Location LOA.",
  tooLong: (label: string, max: number) => `${label} ne doit pas dépasser ${max} caractères.`,
} as const;

export type Change = (before: Snapshot, after: Snapshot, v: Vars) => void;
