import { z } from "zod";
import { escapeHtml, headerText, type RenderedMail } from "./contact-mail";
import { newPasswordSchema } from "./credentials";
import { formatDateTime } from "./dates";
import { AUTH_LIMITS } from "./limits";

// `Mot de passe oublié ?` (issue 20): the pages' addresses, forms and the mail with the link.

export const FORGOT_PASSWORD_PATH = "/auth/mot-de-passe-oublie";
export const RESET_PASSWORD_PATH = "/auth/nouveau-mot-de-passe";

/** How long a mailed link works. */
export const RESET_LINK_MINUTES = 30;

/** 32 random bytes, base64url: what a link carries. Anything else is not looked up. */
export const resetTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The address of the page that sets the new password, on SITE_URL. */
export function resetLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

/** The request form: an e-mail, checked for shape only (the answer never says more). */
export const forgotPasswordSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Veuillez saisir votre adresse e-mail.")
    .max(AUTH_LIMITS.email, "L'adresse e-mail n'est pas valide.")
    .pipe(z.email("L'adresse e-mail n'est pas valide.")),
});

/** The new password, twice, with the link's token. The policy (common, e-mail) is checked after. */
export const resetPasswordSchema = z
  .object({
    token: z.string().max(100),
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(AUTH_LIMITS.passwordMax),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Les deux mots de passe ne correspondent pas.",
  });

export const RESET_MESSAGES = {
  /** The one answer to a request, whether the address has an account or not. */
  requested:
    "Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Ce lien est valable 30 minutes et ne sert qu'une fois.",
  invalidLink:
    "Ce lien de réinitialisation n'est plus valable : il a expiré (30 minutes), a déjà servi ou a été remplacé par une demande plus récente.",
} as const;

/** The mail with the link (text and HTML), sent to the account's address. */
export function renderPasswordResetMail(input: {
  url: string;
  expiresAt: Date;
  siteName: string;
}): RenderedMail {
  const site = headerText(input.siteName);
  const subject = "Réinitialisation de votre mot de passe";
  const until = formatDateTime(input.expiresAt);
  const text = [
    "Bonjour,",
    "",
    `Une réinitialisation du mot de passe de votre compte de l'espace administrateur ${site} a été demandée.`,
    "",
    `Pour choisir un nouveau mot de passe, ouvrez ce lien (valable ${RESET_LINK_MINUTES} minutes, jusqu'au ${until}, et une seule fois) :`,
    input.url,
    "",
    "Toutes vos sessions ouvertes seront fermées. La double authentification, si vous l'avez activée, restera demandée à la connexion.",
    "",
    "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
    "",
  ].join("\n");
  const url = escapeHtml(input.url);
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<p>Bonjour,</p>
<p>Une réinitialisation du mot de passe de votre compte de l'espace administrateur ${escapeHtml(site)} a été demandée.</p>
<p><a href="${url}">Choisir un nouveau mot de passe</a></p>
<p>Ce lien est valable ${RESET_LINK_MINUTES} minutes, jusqu'au ${escapeHtml(until)}, et une seule fois. S'il ne s'ouvre pas, copiez cette adresse dans votre navigateur :<br>
<span style="word-break:break-all">${url}</span></p>
<p>Toutes vos sessions ouvertes seront fermées. La double authentification, si vous l'avez activée, restera demandée à la connexion.</p>
<p style="color:#555;font-size:13px">Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.</p>
</body>
</html>
`;
  return { subject, text, html };
}
