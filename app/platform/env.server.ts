import { envSchema, type Env, type ParsedEnv } from "./env-schema.server";

export {
  envSchema,
  parseClamdAddress,
  type ClamdAddress,
  type Env,
  type TrustProxy,
} from "./env-schema.server";

let cached: Env | undefined;
const warnings: string[] = [];

/**
 * Old names still read for one release, with a warning logged at start:
 * - SITE_URL was BASE_URL until it collided with Vitest's own BASE_URL ('/'): read when it holds
 *   an absolute address;
 * - SHUTDOWN_TIMEOUT_SECONDS was SHUTDOWN_TIMEOUT_MS (milliseconds), converted.
 * The new name wins when both are set.
 */
export function withRenamedVariables(
  source: NodeJS.ProcessEnv,
  warn: (warning: string) => void = (w) => warnings.push(w),
): NodeJS.ProcessEnv {
  let renamed = source;
  const legacyUrl = source.BASE_URL;
  if (source.SITE_URL === undefined && legacyUrl && /^https?:\/\//.test(legacyUrl)) {
    warn("BASE_URL is deprecated and will be ignored in the next release: rename it to SITE_URL");
    renamed = { ...renamed, SITE_URL: legacyUrl };
  }
  const legacyTimeout = source.SHUTDOWN_TIMEOUT_MS;
  if (source.SHUTDOWN_TIMEOUT_SECONDS === undefined && legacyTimeout !== undefined) {
    if (!/^\s*\d+\s*$/.test(legacyTimeout)) {
      throw new Error(
        "Configuration invalide :\n  SHUTDOWN_TIMEOUT_MS: nombre entier de millisecondes attendu " +
          "(ancien nom de SHUTDOWN_TIMEOUT_SECONDS, en secondes)",
      );
    }
    warn(
      "SHUTDOWN_TIMEOUT_MS is deprecated and will be ignored in the next release: use SHUTDOWN_TIMEOUT_SECONDS (in seconds)",
    );
    renamed = { ...renamed, SHUTDOWN_TIMEOUT_SECONDS: String(Number(legacyTimeout) / 1000) };
  }
  return renamed;
}

/** Configuration warnings to log once the server starts (deprecated names). */
export function envWarnings(): readonly string[] {
  env();
  return warnings;
}

/** DKIM: a domain, a selector and one key, or nothing at all. Problems as `NAME: message` lines. */
function dkimProblems(e: ParsedEnv): string[] {
  const key = e.DKIM_PRIVATE_KEY_FILE ?? e.DKIM_PRIVATE_KEY;
  const given = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, key].filter((v) => v !== undefined).length;
  const problems: string[] = [];
  if (given > 0 && given < 3) {
    const missing = "obligatoire avec les autres variables DKIM_ (toutes ou aucune)";
    if (e.DKIM_DOMAIN === undefined) problems.push(`DKIM_DOMAIN: ${missing}`);
    if (e.DKIM_SELECTOR === undefined) problems.push(`DKIM_SELECTOR: ${missing}`);
    if (key === undefined) problems.push(`DKIM_PRIVATE_KEY_FILE (ou DKIM_PRIVATE_KEY): ${missing}`);
  }
  if (e.DKIM_PRIVATE_KEY_FILE !== undefined && e.DKIM_PRIVATE_KEY !== undefined) {
    problems.push("DKIM_PRIVATE_KEY: DKIM_PRIVATE_KEY_FILE ou DKIM_PRIVATE_KEY, pas les deux");
  }
  return problems;
}

/** A site address on this machine (localhost, 127.0.0.0/8, ::1): the demo, not a public site. */
function isLocalSite(siteUrl: string | undefined): boolean {
  if (siteUrl === undefined) return true;
  const host = new URL(siteUrl).hostname.toLowerCase();
  return (
    host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]"
  );
}

/** What production (NODE_ENV=production) refuses, as `NAME: message` lines. */
function productionProblems(e: ParsedEnv): string[] {
  if (e.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  // It encrypts the second factor's keys and webhook secrets and keys the known-device cookies:
  // none of that may rest on the database alone. `npm run demo` (on localhost) goes without.
  if (!e.TOTP_ENCRYPTION_KEY && !isLocalSite(e.SITE_URL)) {
    problems.push(
      "TOTP_ENCRYPTION_KEY: obligatoire en production (32 octets en base64 : openssl rand " +
        "-base64 32), le même sur chaque instance, gardé hors de la base et de ses sauvegardes",
    );
  }
  if (e.TRUST_PROXY.kind === "any-peer") {
    problems.push(
      "TRUST_PROXY: true (tout pair cru comme proxy) est refusé en production : un client qui " +
        "atteint le port directement choisirait son adresse ; indiquez celle du proxy " +
        "(loopback, 10.0.0.5, 10.0.0.0/24)",
    );
  }
  return problems;
}

/**
 * The configuration from an environment; throws a readable French message for a bad variable.
 * SITE_URL defaults to the port the server listens on, so that the first-start banner and the
 * links of a server started with PORT=8080 point to it.
 */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  const lines = result.success
    ? [...dkimProblems(result.data), ...productionProblems(result.data)]
    : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  if (!result.success || lines.length > 0) {
    throw new Error(`Configuration invalide :\n${lines.map((l) => `  ${l}`).join("\n")}`);
  }
  if (result.data.MIGRATION_DATABASE_URL && !result.data.DATABASE_URL) {
    throw new Error(
      "Configuration invalide :\n  MIGRATION_DATABASE_URL: ne sert qu'avec DATABASE_URL (PostgreSQL) ; la base embarquée n'a qu'un rôle",
    );
  }
  return {
    ...result.data,
    SITE_URL: result.data.SITE_URL ?? `http://localhost:${result.data.PORT}`,
  };
}

/** Parsed once; a bad variable stops the process with a readable message. */
export function env(): Env {
  if (!cached) {
    cached = parseEnv(withRenamedVariables(process.env));
    if (cached.TRUST_PROXY.kind === "any-peer") warnings.push(TRUST_ANY_PEER_WARNING);
  }
  return cached;
}

export const TRUST_ANY_PEER_WARNING =
  "TRUST_PROXY=true trusts any peer as a proxy: a client that reaches the port directly chooses " +
  "its own address with X-Forwarded-For; list the proxy's address instead " +
  "(TRUST_PROXY=loopback, 10.0.0.5 or 10.0.0.0/24)";
