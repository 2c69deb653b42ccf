import { expect } from "@playwright/test";
import type { TestSmtpServer } from "../support/smtp";

/** The links our mails carry, as a buyer's or an administrator's mail client shows them. */
export const LINKS = {
  alertConfirm: /http:\/\/\S+\/alertes\/confirmer\?jeton=[\w%-]+/,
  alertUnsubscribe: /http:\/\/\S+\/alertes\/desinscription\?jeton=[\w%-]+/,
  quote: /http:\/\/\S+\/devis\/[A-Za-z0-9_-]{43}/,
  passwordReset: /http:\/\/\S+\/auth\/nouveau-mot-de-passe\?token=[A-Za-z0-9_-]{43}/,
  // Issue 42: `Ma demande`, in the acknowledgement and in `Retrouver ma demande`'s mail.
  requestLink: /http:\/\/\S+\/ma-demande\/[A-Za-z0-9_-]{43}/,
} as const;

type LinkName = keyof typeof LINKS;

/**
 * The links named by `names` in the first mail the SMTP server received for `email` (and whose
 * subject matches `subject`, when given) that holds them all, with that mail's subject.
 */
export async function mailedLinks<K extends LinkName>(
  smtp: TestSmtpServer,
  email: string,
  names: readonly K[],
  subject?: RegExp,
): Promise<Record<K, string> & { subject: string }> {
  let found: (Record<K, string> & { subject: string }) | undefined;
  await expect
    .poll(
      () => {
        for (const mail of smtp.mails) {
          const title = mail.parsed.subject ?? "";
          if (!mail.envelope.to.includes(email) || (subject && !subject.test(title))) continue;
          const text = mail.parsed.text ?? "";
          const links = names.map((name) => LINKS[name].exec(text)?.[0]);
          if (links.every(Boolean)) {
            found = Object.assign(
              { subject: title },
              ...names.map((name, i) => ({ [name]: links[i] })),
            ) as Record<K, string> & { subject: string };
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, message: `a mail to ${email} with ${names.join(", ")}` },
    )
    .toBe(true);
  return found!;
}

/** How many mails the SMTP server received with exactly this subject. */
export const mailsTitled = (smtp: TestSmtpServer, subject: string) =>
  smtp.mails.filter((m) => m.parsed.subject === subject);
