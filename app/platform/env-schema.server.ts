// Every variable the server reads: its parser, its default and its checks of one value
// (env.server.ts parses the environment with it, then checks the variables against each other).
import { isIP } from "node:net";
import proxyaddr from "proxy-addr";
import { z } from "zod";
import { DEFAULT_CLAIMS, splitList } from "~/lib/site";
import { PRICE_DISPLAYS } from "~/lib/money";
import { parseBusinessHours } from "~/platform/business-hours";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * Which peers are reverse proxies whose X-Forwarded-For, -Proto and -Host are believed: none, a
 * list in Express's `trust proxy` syntax (`loopback`, `linklocal`, `uniquelocal`, addresses and
 * CIDR ranges, comma-separated), or `true`, the old setting: the immediate peer, whoever it is
 * (one hop; warned at start, refused when NODE_ENV=production).
 */
export type TrustProxy =
  { kind: "none" } | { kind: "any-peer" } | { kind: "addresses"; addresses: string[] };

const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    const lower = value.toLowerCase();
    if (["", "false", "0", "no"].includes(lower)) return { kind: "none" };
    if (["true", "1", "yes"].includes(lower)) return { kind: "any-peer" };
    const addresses = value
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    const invalid = addresses.filter((a) => {
      // proxy-addr (ipaddr.js) also reads `2` or `0x7f.1` as IPv4: only the usual notations here.
      const [address, range, ...rest] = a.split("/");
      const named = ["loopback", "linklocal", "uniquelocal"].includes(a);
      const usual =
        named ||
        (isIP(address) !== 0 &&
          rest.length === 0 &&
          (range === undefined || /^\d{1,3}$/.test(range) || isIP(range) === 4));
      try {
        proxyaddr.compile(a);
        return !usual;
      } catch {
        return true;
      }
    });
    if (addresses.length === 0 || invalid.length > 0) {
      ctx.addIssue({
        code: "custom",
        message:
          `adresse ou plage non valide (${invalid.join(", ") || value}) : attendu false, ` +
          "ou les adresses du proxy séparées par des virgules (loopback, linklocal, uniquelocal, " +
          "10.0.0.5, 10.0.0.0/24, fd00::/8)",
      });
      return z.NEVER;
    }
    return { kind: "addresses", addresses };
  });

/** Where clamd listens (CLAMAV_SOCKET): a Unix socket's path, or a TCP address. */
export type ClamdAddress = { path: string } | { host: string; port: number };

/** `/run/clamav/clamd.ctl` or `tcp://host:port` as an address; undefined for anything else. */
export function parseClamdAddress(value: string): ClamdAddress | undefined {
  if (value.startsWith("/")) return /\s|\0/.test(value) ? undefined : { path: value };
  if (!/^tcp:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    const port = Number(url.port);
    const bare = url.pathname === "" || url.pathname === "/";
    if (!url.hostname || port < 1 || !bare || url.username || url.search) return undefined;
    return { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port };
  } catch {
    return undefined;
  }
}

/** Every variable the server reads, with its default (.env.example lists the same, tested). */
export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL doit commencer par postgres:// ou postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // PostgreSQL with two roles (docs/production.md): the owner of the tables, which migrates at
  // start and grants DATABASE_URL's role what the server needs (the journal: INSERT and SELECT).
  MIGRATION_DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      "MIGRATION_DATABASE_URL doit commencer par postgres:// ou postgresql://",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // PostgreSQL connections per instance.
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  SEED_DEMO: bool.default(true),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  TRUST_PROXY: trustProxy.default({ kind: "none" }),
  // Admin sessions (issue 20): ended after this much inactivity (sliding), and this long after sign-in.
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  // Unset: required when SITE_URL is https:// (production), not on http://localhost (the demo).
  ADMIN_REQUIRE_2FA: bool.optional(),
  // Encrypts the TOTP keys and webhook secrets at rest (AES-256-GCM, secret-box.server.ts) and keys
  // the known-device cookies (HKDF): 32 bytes in base64. Required by production on a public address.
  TOTP_ENCRYPTION_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "32 octets en base64 attendus (openssl rand -base64 32)")
    .transform((v) => Buffer.from(v, "base64"))
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Sensitive actions ask the password again past this many minutes after sign-in or a confirmation.
  ADMIN_REAUTH_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  // Contact form: accepted submissions per client IP and window, shared by every instance.
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  CONTACT_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  // Expensive public answers, per client address (clientSubject) and per instance (issue 28): a
  // token bucket of BURST answers refilled at RATE_PER_MINUTE (0: no limit). Renders: anonymous
  // GETs that the page cache does not answer; quote PDFs: those not already in memory.
  PUBLIC_RENDER_RATE_PER_MINUTE: z.coerce.number().int().min(0).default(120),
  PUBLIC_RENDER_BURST: z.coerce.number().int().min(1).default(20),
  QUOTE_PDF_RATE_PER_MINUTE: z.coerce.number().int().min(0).default(20),
  QUOTE_PDF_BURST: z.coerce.number().int().min(1).default(10),
  // Quote PDFs rendered at once per instance, and waiting for a turn; beyond, a 503.
  QUOTE_PDF_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  QUOTE_PDF_QUEUE: z.coerce.number().int().min(0).default(16),
  // Up to this many active offers the contact form lists them all; beyond, it searches (issue 11).
  CONTACT_OFFER_SELECT_MAX: z.coerce.number().int().min(0).default(200),
  // On SIGTERM/SIGINT the process exits within this many seconds (decimals allowed); requests in
  // flight a second before are cut. SHUTDOWN_TIMEOUT_MS, the old name in ms, is still read (below).
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(20),
  // GET /metrics (Prometheus): closed (404) unless set; then only with `Authorization: Bearer <it>`.
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9._~+/-]{16,}=*$/,
      "16 caractères au moins, lettres, chiffres et . _ ~ + / - (openssl rand -hex 32)",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SITE_NAME: z.string().min(1).default("ServeurPro"),
  SITE_EMAIL: z.email().default("contact@example.fr"),
  SITE_PHONE: z.string().min(1).default("+33 1 23 45 67 89"),
  SITE_MAIN_URL: z.url().default("https://www.example.fr"),
  // Unset: the footer links to the site's own /mentions-legales page.
  SITE_LEGAL_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SITE_TERMS_URL: z.url().default("https://www.example.fr/cgu"),
  // The version of those terms (e.g. `2026-01`), shown where a quote is accepted and kept with it.
  SITE_TERMS_VERSION: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  // Personal data (issue 12): who is responsible, and how long contact requests are kept.
  SITE_LEGAL_NAME: z.string().trim().min(1).default("ServeurPro SAS (exemple)"),
  SITE_ADDRESS: z.string().trim().min(1).default("1 rue de l'Exemple, 75000 Paris, France"),
  // The seller's identity on quotes and /mentions-legales (issue 21); fictitious demo defaults.
  SITE_LEGAL_FORM: z.string().trim().min(1).default("SAS"),
  SITE_CAPITAL: z.string().trim().min(1).default("10 000 €"),
  SITE_SIREN: z.string().trim().min(1).default("123 456 789"),
  // The city of the trade register (RCS Paris 123 456 789).
  SITE_RCS: z.string().trim().min(1).default("Paris"),
  SITE_VAT_NUMBER: z.string().trim().min(1).default("FR32123456789"),
  SITE_PUBLICATION_DIRECTOR: z.string().trim().min(1).default("Camille Exemple"),
  SITE_HOST_NAME: z.string().trim().min(1).default("Exemple Hébergement SAS"),
  SITE_HOST_ADDRESS: z
    .string()
    .trim()
    .min(1)
    .default("2 rue de l'Hébergeur, 59100 Roubaix, France"),
  // The financer named in the lease simulator's legal mention (issue 21).
  LEASING_PARTNER: z.string().trim().min(1).default("Exemple Leasing SA"),
  RETENTION_MONTHS: z.coerce.number().int().min(1).max(240).default(36),
  // The admin journal's rows are kept this long (issue 20), deleted by the daily purge.
  AUDIT_RETENTION_MONTHS: z.coerce.number().int().min(1).max(240).default(12),
  // Accepted quotes (issue 40) are kept this long from their signature, apart from the requests:
  // never less than the legal period of commercial documents (Code de commerce, L123-22).
  SIGNED_QUOTE_RETENTION_YEARS: z.coerce
    .number()
    .int()
    .min(10, "10 ans au moins : durée légale de conservation des documents commerciaux")
    .max(50)
    .default(10),
  // Notification e-mails (docs/mail.md): without SMTP_URL the outbox fills and nothing is sent.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, "SMTP_URL doit commencer par smtp:// ou smtps://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // One or more addresses, comma-separated; required with SMTP_URL (checked by mail.server.ts).
  NOTIFY_EMAIL: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.email("adresse e-mail non valide")))
    .optional(),
  // 'Name <address>' or an address; default: SITE_NAME <SITE_EMAIL>.
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^([^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, "adresse non valide")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  MAIL_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // The mailbox the buyers' replies reach (issue 40, docs/mail.md): a message written from a
  // request's page answers to its plus-address (`ventes+dem-2026-00012-<tag>@…`), which names the
  // request with a keyed tag nobody can guess. Unset: replies go to SITE_EMAIL, untagged.
  REPLY_MAILBOX: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,63}$/,
      "adresse sans « + » attendue (ventes@exemple.fr)",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // The mailbox read for the buyers' replies (issue 40, docs/mail.md):
  // imaps://user:password@imap.example.fr/INBOX (the password URL-encoded). Unset: nothing is read.
  IMAP_URL: z
    .string()
    .trim()
    .regex(
      /^imaps?:\/\/[^/@\s]+@[^/\s]+(\/\S*)?$/,
      "imaps://utilisateur:mot-de-passe@hôte/INBOX attendu",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // How often the mailbox is read, in seconds.
  IMAP_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // The largest file kept from an incoming message, in bytes (10 MiB; 25 MiB at most): a larger
  // one is refused, and the message says so.
  INCOMING_ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(25 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  // Follow-ups (issue 40, docs/desk.md): the team's working hours in Europe/Paris, Monday to
  // Friday except public holidays; the first answer a request is owed within that many of them
  // (0: no deadline); the hour (Paris) from which each owner's morning digest leaves.
  BUSINESS_HOURS: z
    .string()
    .trim()
    .default("09:00-18:00")
    .refine(
      (value) => parseBusinessHours(value) !== undefined,
      "HH:MM-HH:MM attendu (09:00-18:00)",
    ),
  // The LOA file (issue 41, docs/lease-file.md): largest document a buyer may upload, in bytes.
  LEASE_DOCUMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(100_000)
    .max(50 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  // The financer's mail carries the file's archive up to this size (bytes, before its base64):
  // many SMTP servers refuse messages over 10 MB. Larger, the mail says so and the team sends it.
  LEASE_ARCHIVE_MAIL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(100 * 1024 * 1024)
    .default(7_000_000),
  FIRST_RESPONSE_HOURS: z.coerce.number().min(0).max(200).default(4),
  FOLLOW_UP_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  // How often the follow-up checks run (late notices, reminders, digests, saved searches).
  FOLLOW_UP_CHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  // clamd (docs/production.md, virus-scan.server.ts): each upload is scanned before it is kept,
  // and refused while clamd does not answer. Unset: uploads are not scanned.
  CLAMAV_SOCKET: z
    .string()
    .trim()
    .transform((value, ctx): ClamdAddress | undefined => {
      if (value === "") return undefined;
      const address = parseClamdAddress(value);
      if (address) return address;
      ctx.addIssue({
        code: "custom",
        message: "chemin du socket de clamd (/run/clamav/clamd.ctl) ou tcp://hôte:port attendu",
      });
      return z.NEVER;
    })
    .optional(),
  // DKIM signature of every mail (docs/production.md): the domain and selector of the DNS record
  // `<selector>._domainkey.<domain>`, and the RSA private key, as a file or as PEM text (\n for
  // line breaks). All or none; the key itself is checked at start (dkim.server.ts).
  DKIM_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      "nom de domaine attendu",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DKIM_SELECTOR: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
      "sélecteur DNS attendu (lettres, chiffres, tirets)",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DKIM_PRIVATE_KEY_FILE: z
    .string()
    .trim()
    .min(1)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DKIM_PRIVATE_KEY: z
    .string()
    .transform((v) => v.replaceAll("\\n", "\n").trim() || undefined)
    .optional(),
  // The administration's company search (issue 41, docs/buyer.md): the SIREN typed on the contact
  // form names its company. https://recherche-entreprises.api.gouv.fr; unset: no lookup.
  SIRENE_API_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/\s]+\S*$/, "https://recherche-entreprises.api.gouv.fr attendu")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Default: http://localhost:<PORT> (see parseEnv).
  SITE_URL: z.url().optional(),
  // Visitor acknowledgement of each request (issue 22): on by default when SMTP_URL is set.
  ACK_EMAIL: bool.optional(),
  // Acknowledgements sent by the whole site per hour (issue 28); past it, requests are stored and
  // notified to the team, not acknowledged.
  ACK_MAIL_MAX_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // `Me prévenir` (issue 30): alert requests per client address per hour; confirmation mails per
  // mailbox (case, +tag and Gmail dots folded) per day, past which the same answer mails nothing.
  ALERT_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  ALERT_MAILS_PER_MAILBOX: z.coerce.number().int().min(1).default(3),
  // Confirmation mails per hour to one domain (its last two labels: a catch-all's sub-domains
  // together) and for the whole site (issue 39), shared by every instance; past them, the same
  // answer and no mail.
  ALERT_MAILS_PER_DOMAIN_PER_HOUR: z.coerce.number().int().min(1).default(20),
  ALERT_MAIL_MAX_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // Webhooks (issue 22): endpoints on loopback or private addresses only when true; the longest
  // wait between two attempts of a delivery (first retry after 10 s, doubling, for 24 h).
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  // New requests assigned in turn to the Commercial accounts (issue 22).
  ASSIGN_ROUND_ROBIN: bool.default(false),
  // Commercial statements beyond the spec's claims (app/lib/site.ts): neutral unless set.
  SITE_HARDWARE_TEXT: z.string().trim().min(1).default(DEFAULT_CLAIMS.hardware),
  SITE_DEDICATED_POINTS: z.string().transform(splitList).default(DEFAULT_CLAIMS.dedicatedPoints),
  SITE_LOA_POINTS: z.string().transform(splitList).default(DEFAULT_CLAIMS.loaPoints),
  SITE_HOURS: z.string().trim().default(DEFAULT_CLAIMS.hours),
  // Prices are stored HT; the VAT rate (percent) gives the TTC amounts, PRICE_DISPLAY the figure
  // shown first (docs/decisions/016).
  VAT_RATE: z.coerce.number().min(0).max(100).default(20),
  PRICE_DISPLAY: z.enum(PRICE_DISPLAYS).default("ht"),
});

export type Env = Omit<z.infer<typeof envSchema>, "SITE_URL"> & { SITE_URL: string };

/** The variables as parsed, before SITE_URL is given its default. */
export type ParsedEnv = z.infer<typeof envSchema>;
