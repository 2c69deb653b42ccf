import {
  exportFileName,
  firstIssue,
  personalDataEmailSchema,
} from "~/features/privacy/personal-data";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { requireRecentIdentity } from "~/routes/admin/confirm-identity.server";
import { withDatabase } from "~/platform/availability.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { addressToken, findPersonalData } from "~/features/privacy/personal-data.server";
import { personalDataDocument } from "~/features/privacy/personal-data-document.server";
import { siteConfig } from "~/platform/site.server";
import { journal } from "~/platform/journal.server";
import type { Route } from "./+types/admin-personal-data-export";

/** Everything held about one address as a JSON file (RGPD art. 15 and 20). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireAdmin(request, "admin");
  requireRecentIdentity(request, session);
  const parsed = personalDataEmailSchema.safeParse(new URL(request.url).searchParams.get("email"));
  if (!parsed.success) {
    return new Response(`${firstIssue(parsed.error)}\n`, {
      status: 400,
      headers: { ...PRIVATE_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const email = parsed.data;
  const { found, subject } = await withDatabase("personal data export", context, async () => ({
    found: await findPersonalData(email),
    subject: await addressToken(email),
  }));
  const now = new Date();
  const e = env();
  const document = personalDataDocument(
    email,
    found,
    { name: e.SITE_LEGAL_NAME, address: e.SITE_ADDRESS, email: siteConfig().email },
    now,
  );
  await journal.recordBeforeExport(context, {
    actor: session.user,
    action: "personal-data-exported",
    target: `personne ${subject}`,
  });
  log.info("personal data exported", {
    requestId: context.requestId,
    subject,
    requests: found.counts.requests,
    alerts: found.counts.alerts,
  });
  return new Response(`${JSON.stringify(document, null, 2)}\n`, {
    headers: {
      ...PRIVATE_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(now)}"`,
    },
  });
}
