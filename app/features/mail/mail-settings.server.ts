// Mail settings from the environment, the SMTP check at start and how SMTP errors read.
import nodemailer from "nodemailer";
import type { Pricing } from "~/lib/money";
import { dkimSettings, type DkimSettings } from "./dkim.server";
import { env } from "~/platform/env.server";
import { siteConfig } from "~/platform/site.server";

export type MailSettings = {
  smtpUrl: string;
  to: string[];
  from: string | { name: string; address: string };
  retryMaxSeconds: number;
  /** Public address of the site, for the link to the request's page. */
  baseUrl: string;
  /** How prices are shown (PRICE_DISPLAY, VAT_RATE), the mail like the site. */
  pricing: Pricing;
  /** Every mail signed with DKIM when DKIM_* are set (docs/production.md: the DNS records). */
  dkim?: DkimSettings;
};

/**
 * The notification settings, or null when SMTP_URL is not set (notifications off). Checks the
 * DKIM key either way: a bad one stops the server at start.
 */
export function mailSettings(): MailSettings | null {
  const e = env();
  const dkim = dkimSettings(e);
  if (!e.SMTP_URL) return null;
  if (!e.NOTIFY_EMAIL?.length) {
    throw new Error(
      "Configuration invalide :\n  NOTIFY_EMAIL: obligatoire quand SMTP_URL est défini",
    );
  }
  const site = siteConfig();
  return {
    smtpUrl: e.SMTP_URL,
    to: e.NOTIFY_EMAIL,
    from: e.MAIL_FROM ?? { name: site.name, address: site.email },
    retryMaxSeconds: e.MAIL_RETRY_MAX_SECONDS,
    baseUrl: site.baseUrl,
    pricing: site.pricing,
    dkim,
  };
}

/** Whether this instance sends notifications (the dashboard says so when it does not). */
export function notificationsEnabled(): boolean {
  return Boolean(env().SMTP_URL);
}

/**
 * A refusal the SMTP server says is final (5xx: unknown recipient, relay denied, bad credentials):
 * sending again cannot succeed. 4xx replies and network errors are temporary and retried.
 */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/**
 * Connects and logs in to the SMTP server once, at start, so that a wrong SMTP_URL (host, port,
 * credentials) is reported then rather than at the first request. Never throws.
 */
export async function verifySmtp(
  settings: MailSettings,
): Promise<{ ok: true } | { ok: false; reason: string; permanent: boolean }> {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 10_000,
  });
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeError(error), permanent: isPermanentSmtpError(error) };
  } finally {
    transport.close();
  }
}

/** An error as the dashboard shows it: the SMTP reply when there is one, never a password. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & { code?: string; response?: string };
  const text = (e.response ?? e.message).replace(/\s+/g, " ").trim();
  return e.code && !text.includes(e.code) ? `${e.code} : ${text}` : text;
}

/** The SMTP server took the mail but the database did not record it in time: never sent again. */

/** The domain of the Message-IDs the site writes: its own address's host. */
export const messageDomainOf = (baseUrl: string) => new URL(baseUrl).hostname || "localhost";
