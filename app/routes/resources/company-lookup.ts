import { z } from "zod";
import { cacheControl, retryAfter } from "~/lib/http-headers";
import { retryInMinutes } from "~/lib/messages";
import { compactSiren, isValidSiren, SIREN_MESSAGES } from "~/lib/siren";
import {
  closedWarning,
  companyLookupEnabled,
  companySummary,
  findCompany,
  takeCompanyLookup,
} from "~/features/desk/company-lookup.server";
import { countRefusal } from "~/platform/metrics.server";
import type { Route } from "./+types/company-lookup";

/**
 * The company of a SIREN for the contact form's script (app/client/company-lookup.ts): what the
 * register says, with the line to show (`summary`) and, for a closed company, the warning.
 */
export type CompanyAnswer =
  | {
      found: true;
      name: string;
      legalForm: string | null;
      address: string | null;
      headOffice: boolean;
      closed: boolean;
      closedOn: string | null;
      summary: string;
      warning: string | null;
    }
  | { found: false }
  | { error: string };

const sirenParam = z
  .string()
  .max(20)
  .transform(compactSiren)
  .refine(isValidSiren, SIREN_MESSAGES.invalid);

// The register changes slowly: a browser asks again for the same SIREN after an hour. A failure
// (no answer in time) is not kept, so the next try asks again.
const KEPT = cacheControl({ privateMaxAge: 3600 });
const NOT_KEPT = cacheControl("private");

function json(body: CompanyAnswer, status: number, headers: Record<string, string>) {
  return Response.json(body, { status, headers });
}

/**
 * GET /entreprise/:siren. Limited per client like every render (http-server/render-limit.ts), and
 * in lookups of its own (takeCompanyLookup).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!companyLookupEnabled()) return json({ found: false }, 404, NOT_KEPT);
  const siren = sirenParam.safeParse(params.siren);
  if (!siren.success) return json({ error: SIREN_MESSAGES.invalid }, 400, NOT_KEPT);
  const turn = takeCompanyLookup(context.clientIp);
  if (!turn.allowed) {
    countRefusal("company-lookup");
    const error = `Trop de recherches d'entreprise depuis votre connexion. ${retryInMinutes(turn.retryAfterSeconds)}`;
    return json({ error }, 429, { ...NOT_KEPT, ...retryAfter(turn.retryAfterSeconds) });
  }
  const lookup = await findCompany(siren.data);
  if (lookup.status === "unavailable") return json({ found: false }, 200, NOT_KEPT);
  if (lookup.status === "not-found") return json({ found: false }, 200, KEPT);
  const { company } = lookup;
  return json(
    {
      found: true,
      name: company.name,
      legalForm: company.legalForm ?? null,
      address: company.address ?? null,
      headOffice: company.headOffice,
      closed: company.closed,
      closedOn: company.closedOn ?? null,
      summary: companySummary(company),
      warning: closedWarning(company) ?? null,
    },
    200,
    KEPT,
  );
}
