/**
 * The block a first start prints on the terminal with the generated administrator password. Plain
 * text, not a JSON log field: the log redacts anything named like a password, and a newcomer must
 * be able to read it. The caller writes it once, to stderr, outside the structured log.
 */
export function firstStartNotice(credentials: {
  email: string;
  password: string;
  signInUrl: string;
}): string {
  const lines = [
    "Premier démarrage : compte administrateur créé (affiché une seule fois)",
    "",
    `  Adresse      : ${credentials.signInUrl}`,
    `  E-mail       : ${credentials.email}`,
    `  Mot de passe : ${credentials.password}`,
    "",
    "Notez-le maintenant : il ne sera plus affiché. Pour le changer :",
    "  npm run admin:create -- --email <e-mail> --password '<12 caractères ou plus>'",
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = `+${"-".repeat(width + 2)}+`;
  return [rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule, ""].join("\n");
}

/** Reads the e-mail and password back from a notice (or from a terminal capture containing one). */
export function parseFirstStartNotice(text: string): { email: string; password: string } | null {
  const email = /\|\s+E-mail\s+: (\S+)/.exec(text)?.[1];
  const password = /\|\s+Mot de passe\s+: (\S+)/.exec(text)?.[1];
  return email && password ? { email, password } : null;
}
