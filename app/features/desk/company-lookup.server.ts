import { z } from "zod";
import { COMPANY_MAX } from "~/lib/siren";
import { memo } from "~/lib/memo";
import { clientSubject } from "~/platform/client-address.server";
import { TokenBuckets, type Take } from "~/platform/rate-limit.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";

// Issue 41: the company behind a SIREN, from the French administration's free company search
// (API Recherche d'entreprises, `GET /search?q=<siren>`, SIRENE_API_URL). A help, never a step:
// one second at most, any failure is "unknown", and nothing here throws.

/** What the register says of a company, ready to show. */
export type Company = {
  siren: string;
  name: string;
  /** `SAS`, `SARL`, `Entrepreneur individuel`…, or `Forme juridique 5385` for the rarer codes. */
  legalForm?: string;
  address?: string;
  /** The address is the head office's (`siège`). */
  headOffice: boolean;
  closed: boolean;
  /** `2023-03-31`: the day the company ceased, when the register says it. */
  closedOn?: string;
};

export type CompanyLookup =
  | { status: "found"; company: Company }
  | { status: "not-found" }
  /** Not asked (no SIRENE_API_URL), or no usable answer in time. */
  | { status: "unavailable" };

const TIMEOUT_MS = 1_000;
const FOUND_TTL_MS = 24 * 3_600_000;
// A company registered today reaches the register's index within days: asked again sooner.
const NOT_FOUND_TTL_MS = 3_600_000;
/** A larger answer than this is not one to a search of one SIREN. */
const MAX_ANSWER_BYTES = 1_000_000;

/** The INSEE legal categories (`nature_juridique`) people meet most, as they are said. */
const LEGAL_FORMS: Record<string, string> = {
  "1000": "Entrepreneur individuel",
  "5202": "SNC",
  "5485": "SELARL",
  "5498": "EURL",
  "5499": "SARL",
  "5599": "SA",
  "5699": "SA à directoire",
  "5710": "SAS",
  "5720": "SASU",
  "5785": "SELAS",
  "5800": "Société européenne",
  "6220": "GIE",
  "6540": "SCI",
  "6599": "Société civile",
  "9220": "Association",
};

/** The legal form of an INSEE category code: `5710` → `SAS`; an unlisted one says its code. */
export function legalFormLabel(code: string): string {
  return LEGAL_FORMS[code] ?? `Forme juridique ${code}`;
}

// What the register may not publish (a person's choice) reads `[NON-DIFFUSIBLE]`: not a value.
const HIDDEN = /^\[?NON[- ]DIFFUSIBLE\]?$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** A text of the answer, cleaned: control characters out, spaces folded, hidden values dropped. */
const shown = (max: number) =>
  z
    .string()
    .nullish()
    .transform((value) => {
      const text = value?.replace(CONTROL, " ").replace(/\s+/g, " ").trim();
      return text && !HIDDEN.test(text) ? text.slice(0, max).trim() : undefined;
    });

const day = z.iso.date().nullish().catch(undefined);

const headOfficeSchema = z.object({
  adresse: shown(300),
  code_postal: shown(10),
  libelle_commune: shown(100),
  est_siege: z.boolean().nullish(),
  date_fermeture: day,
});

const unitSchema = z.object({
  siren: z.string().regex(/^\d{9}$/),
  nom_raison_sociale: shown(COMPANY_MAX),
  nom_complet: shown(COMPANY_MAX),
  nature_juridique: z
    .string()
    .regex(/^\d{4}$/)
    .nullish()
    .catch(undefined),
  etat_administratif: z.string().nullish(),
  date_fermeture: day,
  siege: headOfficeSchema.nullish(),
});

const answerSchema = z.object({
  // Only the SIREN of each result is read first: another company's odd field changes nothing.
  results: z.array(z.looseObject({ siren: z.unknown() })).max(100),
  total_results: z.number().int().nonnegative(),
});

/**
 * The company `siren` names in a search answer: null when the register has none (or nothing that
 * names it), undefined when the answer is not one the API gives.
 */
export function companyFromAnswer(body: unknown, siren: string): Company | null | undefined {
  const answer = answerSchema.safeParse(body);
  if (!answer.success) return undefined;
  const result = answer.data.results.find((r) => r.siren === siren);
  if (!result) return null;
  const unit = unitSchema.safeParse(result);
  if (!unit.success) return undefined;
  const { data } = unit;
  // A company name: its registered name; a person's business, the person's name (nom_complet).
  const name = data.nom_raison_sociale ?? data.nom_complet;
  if (!name) return null;
  const siege = data.siege;
  const town = [siege?.code_postal, siege?.libelle_commune].filter(Boolean).join(" ");
  const closed = data.etat_administratif === "C";
  const closedOn = closed ? (data.date_fermeture ?? siege?.date_fermeture ?? undefined) : undefined;
  return {
    siren,
    name,
    ...(data.nature_juridique ? { legalForm: legalFormLabel(data.nature_juridique) } : {}),
    ...(siege?.adresse || town ? { address: siege?.adresse ?? town } : {}),
    // The search gives the head office of a SIREN; older answers did not say so.
    headOffice: Boolean(siege) && siege?.est_siege !== false,
    closed,
    ...(closedOn ? { closedOn } : {}),
  };
}

/** `31/03/2023` */
function frenchDay(isoDay: string): string {
  return isoDay.split("-").reverse().join("/");
}

/** `ACME SAS — SAS, 12 RUE DE LA PAIX 75002 PARIS (siège)`: the line shown under the SIREN. */
export function companySummary(company: Company): string {
  const where = company.address
    ? `${company.address}${company.headOffice ? " (siège)" : ""}`
    : undefined;
  const details = [company.legalForm, where].filter(Boolean).join(", ");
  return details ? `${company.name} — ${details}` : company.name;
}

/** The warning a closed company deserves, undefined for an active one. */
export function closedWarning(company: Company): string | undefined {
  if (!company.closed) return undefined;
  return company.closedOn
    ? `Cette entreprise est fermée depuis le ${frenchDay(company.closedOn)}.`
    : "Cette entreprise est fermée.";
}

type Cached = { company: Company | null };
type Failure = { reason: string; status?: number };

class LookupFailed extends Error {}

/**
 * A lookup on one search API (`baseUrl`), with its own memory: answers (and "no such company") are
 * kept, failures are not; the same SIREN asked twice at once is one call. The API takes 7 calls a
 * second from one address: this process keeps under that, and past it answers "unavailable".
 */
export function companyDirectory(options: { baseUrl: string; timeoutMs?: number }) {
  const search = `${options.baseUrl.replace(/\/+$/, "")}/search`;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const calls = new TokenBuckets({ perMinute: 360, burst: 7, maxClients: 1 });

  const ask = async (siren: string): Promise<Cached | Failure> => {
    const take = calls.take("api");
    if (!take.allowed) return { reason: "calls per second" };
    let response: Response;
    try {
      response = await fetch(`${search}?q=${siren}`, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return { reason: "status", status: response.status };
      }
      const text = await response.text();
      if (text.length > MAX_ANSWER_BYTES) return { reason: "too large" };
      const company = companyFromAnswer(JSON.parse(text), siren);
      return company === undefined ? { reason: "malformed" } : { company };
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      if (name === "TimeoutError" || name === "AbortError") return { reason: "timeout" };
      return { reason: error instanceof SyntaxError ? "malformed" : "unreachable" };
    }
  };

  // The one memo (~/lib/memo): a failure is thrown, so not kept; "no such company" kept less long.
  const cache = memo(
    async (siren: string): Promise<Cached> => {
      const answer = await ask(siren);
      if (!("reason" in answer)) return answer;
      log.warn("company lookup failed", { ...answer, timeoutMs });
      throw new LookupFailed(answer.reason);
    },
    {
      max: 1_000,
      ttlMs: FOUND_TTL_MS,
      ttlOf: (cached) => (cached.company === null ? NOT_FOUND_TTL_MS : undefined),
    },
  );

  return async function find(siren: string): Promise<CompanyLookup> {
    try {
      const cached = await cache(siren);
      return cached.company
        ? { status: "found", company: cached.company }
        : { status: "not-found" };
    } catch (error) {
      // A failure was logged once, however many asked for it meanwhile.
      if (!(error instanceof LookupFailed))
        log.warn("company lookup failed", { reason: "error", error });
      return { status: "unavailable" };
    }
  };
}

let directory: ReturnType<typeof companyDirectory> | null | undefined;

/** The directory of SIRENE_API_URL; null when it is not set. */
function configuredDirectory() {
  if (directory === undefined) {
    const baseUrl = env().SIRENE_API_URL;
    directory = baseUrl ? companyDirectory({ baseUrl }) : null;
  }
  return directory;
}

/**
 * Lookups per client address, in this process's memory like the register's 7 calls a second it
 * guards: a person types a SIREN or two; one script trying SIRENs would spend everyone's calls.
 */
const clientLookups = new TokenBuckets({ perMinute: 6, burst: 10 });

/** Takes one of the client's lookups, or says how long until it has one. */
export function takeCompanyLookup(clientIp: string): Take {
  return clientLookups.take(clientSubject(clientIp));
}

/** Whether SIRENE_API_URL is set: the contact form then names the company of a SIREN. */
export function companyLookupEnabled(): boolean {
  return configuredDirectory() !== null;
}

/** What the register says of `siren` (a valid SIREN), within a second; never throws. */
export async function findCompany(siren: string): Promise<CompanyLookup> {
  const find = configuredDirectory();
  return find ? find(siren) : { status: "unavailable" };
}

/** The company of `siren`, or undefined: unknown, no answer in time, or no lookup configured. */
export async function lookupCompany(siren: string): Promise<Company | undefined> {
  const found = await findCompany(siren);
  return found.status === "found" ? found.company : undefined;
}
