import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { RequiredCheckbox } from "~/components/ui/field";
import { SignerFields } from "~/components/signer-fields";
import { formatDateTime } from "~/lib/dates";
import type { BuyerDelivery } from "./delivery-report.server";

// The buyer's `PV de livraison` on the quote's page (issue 41): the equipment and its serial
// numbers as the team entered them, signed once like the quote (no JavaScript on this page).

const MAX = 100;

export function DeliveryReportSection({
  delivery,
  token,
  errors,
  values,
}: {
  delivery: BuyerDelivery;
  token: string;
  errors: Record<string, string | undefined>;
  values?: Record<string, string>;
}) {
  const { signed } = delivery;
  return (
    <Card id="livraison">
      <CardHeader>
        <CardTitle as="h2">PV de livraison</CardTitle>
        <p className="text-sm text-muted-foreground">
          {signed
            ? `Signé le ${formatDateTime(signed.at)} par ${signed.name} (${signed.role}).`
            : "Votre serveur est livré : vérifiez le matériel et ses numéros de série, puis signez le procès-verbal de livraison. La location commence à sa date."}
        </p>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <table className="w-full text-left">
          <caption className="sr-only">Matériel livré</caption>
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-2">
                Matériel
              </th>
              <th scope="col" className="py-2">
                N° de série
              </th>
            </tr>
          </thead>
          <tbody>
            {delivery.items.map((item, i) => (
              <tr key={`${i}-${item.serial}`} className="border-b">
                <td className="py-2">{item.label}</td>
                <td className="py-2 font-mono">{item.serial}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {signed ? (
          <>
            <p>
              <a className="text-primary underline" href={`/devis/${token}/pv-de-livraison.pdf`}>
                Télécharger le PV de livraison signé (PDF)
              </a>
            </p>
            <p>
              Empreinte SHA-256 du PV signé, conservé tel quel :{" "}
              <code className="break-all font-mono text-xs">{signed.sha256}</code>
            </p>
          </>
        ) : (
          <Form method="post" className="space-y-4" aria-label="PV de livraison">
            <input type="hidden" name="intent" value="delivery-report" />
            <input type="hidden" name="version" value={delivery.version} />
            <div className="grid gap-4 sm:grid-cols-2">
              <SignerFields
                idPrefix="delivery"
                limits={{ name: MAX, role: MAX }}
                errors={errors}
                values={values}
              />
            </div>
            <RequiredCheckbox id="delivery-received" name="received" error={errors.received}>
              Je confirme avoir reçu ce matériel en bon état de fonctionnement.
            </RequiredCheckbox>
            <p className="text-xs text-muted-foreground">
              Votre signature en ligne vaut signature électronique simple (règlement eIDAS) : nous
              conservons le PV signé et son empreinte (SHA-256), avec votre nom, votre fonction, la
              date, votre adresse IP et votre navigateur, pendant la durée légale de conservation
              des documents commerciaux.
            </p>
            <Button type="submit">Signer le PV de livraison</Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
