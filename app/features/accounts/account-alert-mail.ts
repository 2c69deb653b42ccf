import { escapeHtml, headerText, type RenderedMail } from "~/features/mail/mail-text";
import { formatDateTime } from "~/lib/dates";
import { FORGOT_PASSWORD_PATH } from "./password-reset";

/** `Mon compte`, where a signed-in administrator changes their password. */
export const ACCOUNT_PATH = "/admin/account";

/**
 * The warning to an account whose password was just used with wrong second-factor codes (issue
 * 28): someone has the password; how to change it. Nothing about who tried (no address): the
 * journal keeps that for the administrators.
 */
export function renderSecondFactorAlertMail(input: {
  baseUrl: string;
  siteName: string;
  at: Date;
}): RenderedMail {
  const site = headerText(input.siteName);
  const base = input.baseUrl.replace(/\/+$/, "");
  const accountUrl = `${base}${ACCOUNT_PATH}`;
  const forgotUrl = `${base}${FORGOT_PASSWORD_PATH}`;
  const when = formatDateTime(input.at);
  const subject = "Alerte de sécurité : votre mot de passe est utilisé par quelqu'un d'autre";
  const text = [
    "Bonjour,",
    "",
    `Le ${when}, le bon mot de passe de votre compte de l'espace administrateur ${site} a été saisi, suivi de plusieurs codes de double authentification erronés.`,
    "",
    "Si ce n'était pas vous, quelqu'un connaît votre mot de passe. Votre double authentification l'a arrêté, mais changez votre mot de passe dès maintenant :",
    `- dans « Mon compte » une fois connecté : ${accountUrl}`,
    `- ou, si vous ne pouvez pas vous connecter, avec « Mot de passe oublié ? » : ${forgotUrl}`,
    "",
    "Votre navigateur habituel reste autorisé à se connecter avec votre code, quoi que tente cette personne ailleurs.",
    "",
    "Si c'était vous (un code mal recopié, l'heure du téléphone décalée), vous pouvez ignorer ce message.",
    "",
  ].join("\n");
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<p>Bonjour,</p>
<p>Le ${escapeHtml(when)}, le bon mot de passe de votre compte de l'espace administrateur ${escapeHtml(site)} a été saisi, suivi de plusieurs codes de double authentification erronés.</p>
<p><strong>Si ce n'était pas vous, quelqu'un connaît votre mot de passe.</strong> Votre double authentification l'a arrêté, mais changez votre mot de passe dès maintenant :</p>
<ul>
<li>dans <a href="${escapeHtml(accountUrl)}">Mon compte</a> une fois connecté ;</li>
<li>ou, si vous ne pouvez pas vous connecter, avec <a href="${escapeHtml(forgotUrl)}">Mot de passe oublié ?</a></li>
</ul>
<p>Votre navigateur habituel reste autorisé à se connecter avec votre code, quoi que tente cette personne ailleurs.</p>
<p style="color:#555;font-size:13px">Si c'était vous (un code mal recopié, l'heure du téléphone décalée), vous pouvez ignorer ce message.</p>
</body>
</html>
`;
  return { subject, text, html };
}
