import { data, redirect } from "react-router";
import { z } from "zod";
import { firstFieldError } from "~/lib/field-errors";
import { SECRET_LINK_HEADERS } from "~/lib/http-headers";
import { withDatabase } from "~/platform/availability.server";
import { parseForm } from "~/platform/form.server";
import { journal } from "~/platform/journal.server";
import { log } from "~/platform/log.server";
import { signDeliveryReport, type DeliverySignOutcome } from "./delivery-report.server";

// `Signer le PV de livraison` on the quote's page (issue 41): posted like `Bon pour accord`, a box
// the browser requires and the server checks again, then signed once.

export const DELIVERY_SIGNER_MAX = { name: 100, role: 100 } as const;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const line = (max: number, missing: string, label: string) =>
  z
    .string()
    .trim()
    .min(1, missing)
    .max(max, `${label} ne doit pas dépasser ${max} caractères.`)
    .refine((v) => !CONTROL.test(v), `${label} contient des caractères non autorisés.`);

const signSchema = z.object({
  intent: z.literal("delivery-report"),
  name: line(DELIVERY_SIGNER_MAX.name, "Indiquez votre nom.", "Le nom"),
  role: line(DELIVERY_SIGNER_MAX.role, "Indiquez votre fonction.", "La fonction"),
  received: z.literal("on", {
    message: "Cochez la case pour confirmer avoir reçu le matériel en bon état de fonctionnement.",
  }),
  version: z.string().trim().min(1).max(40),
});

const REFUSED: Record<Extract<DeliverySignOutcome, { kind: "refused" }>["reason"], string> = {
  signed: "Ce procès-verbal de livraison est déjà signé : il ne se signe qu'une fois.",
  "not-ready":
    "Le procès-verbal de livraison n'est pas prêt à être signé : notre équipe vous prévient dès la livraison.",
  changed:
    "Le matériel livré a été modifié depuis l'ouverture de cette page : vérifiez-le ci-dessous, puis signez à nouveau.",
};

const NOT_SIGNED = "PV de livraison non signé";

export async function deliveryReportAction(
  request: Request,
  form: FormData,
  token: string,
  context: { requestId: string; clientIp: string },
) {
  const submission = parseForm(form, signSchema);
  if (!submission.success) {
    const { fieldErrors, values } = submission;
    return data(
      {
        error: NOT_SIGNED,
        description: firstFieldError(fieldErrors, NOT_SIGNED),
        fieldErrors,
        values: { name: values.name.slice(0, 200), role: values.role.slice(0, 200) },
      },
      { status: 400, headers: SECRET_LINK_HEADERS },
    );
  }
  const { name, role, version } = submission.data;
  const client = { ip: context.clientIp, userAgent: request.headers.get("user-agent") ?? "" };
  const outcome = await withDatabase(
    "delivery report",
    context,
    () => signDeliveryReport(token, { name, role, version }, client),
    { headers: SECRET_LINK_HEADERS },
  );
  if (outcome.kind === "missing") {
    return data(
      { error: NOT_SIGNED, description: "Ce lien ne mène à aucun dossier." },
      { status: 404, headers: SECRET_LINK_HEADERS },
    );
  }
  if (outcome.kind === "refused") {
    return data(
      { error: NOT_SIGNED, description: REFUSED[outcome.reason] },
      { status: 409, headers: SECRET_LINK_HEADERS },
    );
  }
  log.info("delivery report signed", {
    requestId: context.requestId,
    reference: outcome.reference,
  });
  await journal.record(context, {
    actor: null,
    action: "delivery-report-signed",
    target: outcome.reference,
  });
  throw redirect(`/devis/${token}#livraison`, { status: 303, headers: SECRET_LINK_HEADERS });
}
