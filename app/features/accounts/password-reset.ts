// `Mot de passe oublié ?` (issue 20): the pages' addresses and copy. No zod here: the pages
// hydrate and import this (schemas in password-reset-schema.ts, the mail in password-reset-mail.ts).

export const FORGOT_PASSWORD_PATH = "/auth/mot-de-passe-oublie";
export const RESET_PASSWORD_PATH = "/auth/nouveau-mot-de-passe";

/** How long a mailed link works. */
export const RESET_LINK_MINUTES = 30;

/** The address of the page that sets the new password, on SITE_URL. */
export function resetLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

export const RESET_MESSAGES = {
  /** The one answer to a request, whether the address has an account or not. */
  requested:
    "Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Ce lien est valable 30 minutes et ne sert qu'une fois.",
  invalidLink:
    "Ce lien de réinitialisation n'est plus valable : il a expiré (30 minutes), a déjà servi ou a été remplacé par une demande plus récente.",
} as const;
