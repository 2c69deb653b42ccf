import { escapeHtml, headerText, type RenderedMail } from "~/features/mail/mail-text";
import { formatDateTime } from "~/lib/dates";
import { RESET_LINK_MINUTES } from "./password-reset";

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
