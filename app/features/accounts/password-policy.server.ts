import { dictionary } from "@zxcvbn-ts/language-common";

// Passwords refused beyond the length rule (issue 20, ASVS 2.1.7): the ~49,000 most common and
// breached passwords shipped offline by @zxcvbn-ts/language-common (no network call), with the
// usual disguises (case, digits or symbols added at the end, repetition), and any password that
// contains the account's e-mail or its part before the @ (6 characters or more).

const COMMON = new Set<string>(dictionary["passwords-common"] as string[]);

export const PASSWORD_POLICY_MESSAGES = {
  common:
    "Ce mot de passe fait partie des mots de passe les plus courants ou déjà divulgués : choisissez-en un autre.",
  email: "Le mot de passe ne doit pas contenir votre adresse e-mail.",
} as const;

function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return true;
  // 'Dragon2024!' is 'dragon' with a suffix; 'soleilsoleil' is 'soleil' twice.
  const base = lower.replace(/[\d\W_]+$/u, "").replace(/^\d+/, "");
  if (base.length >= 4 && COMMON.has(base)) return true;
  const unit = /^(.+?)\1+$/u.exec(lower)?.[1];
  return unit !== undefined && (unit.length < 4 || COMMON.has(unit));
}

/** Why `password` is refused for the account `email`, or null when it may be used. */
export function passwordPolicyProblem(password: string, email?: string): string | null {
  if (email) {
    const lower = password.toLowerCase();
    const address = email.toLowerCase();
    const local = address.split("@")[0] ?? "";
    // The part before the @ counts from 6 characters: 'admin' inside a long passphrase is no leak.
    if (lower.includes(address) || (local.length >= 6 && lower.includes(local))) {
      return PASSWORD_POLICY_MESSAGES.email;
    }
  }
  return isCommon(password) ? PASSWORD_POLICY_MESSAGES.common : null;
}
