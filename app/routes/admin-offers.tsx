import { Pencil, Plus, Star, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { OfferForm } from "~/components/admin/offer-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { ADMIN_MESSAGES, type ToastMessage } from "~/lib/admin-messages";
import { adminMeta } from "~/lib/admin-meta";
import { OFFER_TYPE_BADGES } from "~/lib/domain";
import { formatMonthlyPrice } from "~/lib/format";
import {
  OFFER_FORM_DEFAULTS,
  offerFormValues,
  offerToFormValues,
  type OfferField,
  type OfferFormValues,
} from "~/lib/offer-form";
import { parseOfferForm } from "~/lib/offer-form-schema";
import { useHydrated } from "~/lib/use-hydrated";
import {
  createOffer,
  deleteOffer,
  findOfferById,
  listAllOffers,
  OfferNotFoundError,
  updateOffer,
  type AdminOfferRow,
} from "~/server/admin-offers.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/server/auth.server";
import { withFlash } from "~/server/flash.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/admin-offers";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Gestion des offres");

const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
const idParam = (value: FormDataEntryValue | null) => {
  const parsed = idSchema.safeParse(typeof value === "string" && value !== "" ? value : undefined);
  return parsed.success ? parsed.data : undefined;
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const editId = idParam(params.get("edit"));
  const deleteId = idParam(params.get("delete"));
  const [offers, editing] = await Promise.all([
    listAllOffers(),
    editId === undefined ? undefined : findOfferById(editId),
  ]);
  const form = editing
    ? { mode: "edit" as const, offerId: editing.id, values: offerToFormValues(editing) }
    : params.get("new") === "1"
      ? { mode: "create" as const, offerId: undefined, values: OFFER_FORM_DEFAULTS }
      : null;
  return {
    offers,
    form,
    editMissing: editId !== undefined && !editing,
    pendingDelete: offers.find((offer) => offer.id === deleteId) ?? null,
  };
}

export type OfferActionData = {
  intent: "create" | "update" | "delete" | null;
  error: ToastMessage;
  fieldErrors?: Partial<Record<OfferField, string>>;
  values?: OfferFormValues;
};

function failure(status: number, body: OfferActionData) {
  return data(body, { status, headers: PRIVATE_HEADERS });
}

const FAILURE_TITLES = {
  create: ADMIN_MESSAGES.offerCreateFailed,
  update: ADMIN_MESSAGES.offerUpdateFailed,
  delete: ADMIN_MESSAGES.offerDeleteFailed,
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return failure(400, {
      intent: null,
      error: { type: "error", title: "Requête invalide" },
    });
  }
  const intent = form.get("intent");
  if (intent !== "create" && intent !== "update" && intent !== "delete") {
    return failure(400, { intent: null, error: { type: "error", title: "Requête invalide" } });
  }
  const id = idParam(form.get("id"));
  if (intent !== "create" && id === undefined) {
    return failure(400, {
      intent,
      error: {
        type: "error",
        title: FAILURE_TITLES[intent],
        description: ADMIN_MESSAGES.offerGone,
      },
    });
  }

  if (intent === "delete") {
    try {
      if (!(await deleteOffer(id!))) {
        return failure(404, {
          intent,
          error: {
            type: "error",
            title: FAILURE_TITLES.delete,
            description: ADMIN_MESSAGES.offerGone,
          },
        });
      }
    } catch (error) {
      log.error("offer delete failed", { requestId: context.requestId, error });
      return failure(503, { intent, error: { type: "error", title: FAILURE_TITLES.delete } });
    }
    log.info("offer deleted", { requestId: context.requestId, offerId: id });
    throw redirect("/admin/offers", {
      headers: withFlash(request, "offerDeleted", PRIVATE_HEADERS),
    });
  }

  const values = offerFormValues(form);
  const parsed = parseOfferForm(values);
  if (!parsed.success) {
    return failure(400, {
      intent,
      error: parsed.missing
        ? { type: "error", title: parsed.message }
        : { type: "error", title: ADMIN_MESSAGES.offerInvalid, description: parsed.message },
      fieldErrors: parsed.fieldErrors,
      values,
    });
  }
  try {
    const row =
      intent === "create" ? await createOffer(parsed.data) : await updateOffer(id!, parsed.data);
    log.info(intent === "create" ? "offer created" : "offer updated", {
      requestId: context.requestId,
      offerId: row.id,
    });
  } catch (error) {
    if (error instanceof OfferNotFoundError) {
      return failure(404, {
        intent,
        error: {
          type: "error",
          title: FAILURE_TITLES.update,
          description: ADMIN_MESSAGES.offerGone,
        },
        values,
      });
    }
    log.error(`offer ${intent} failed`, { requestId: context.requestId, error });
    return failure(503, {
      intent,
      error: { type: "error", title: FAILURE_TITLES[intent], description: "Veuillez réessayer." },
      values,
    });
  }
  throw redirect("/admin/offers", {
    headers: withFlash(
      request,
      intent === "create" ? "offerCreated" : "offerUpdated",
      PRIVATE_HEADERS,
    ),
  });
}

function OfferListItem({ offer }: { offer: AdminOfferRow }) {
  return (
    <li className="flex flex-col gap-4 rounded-lg border bg-card p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{offer.title}</h3>
          <Badge variant={offer.type === "dedicated" ? "default" : "secondary"}>
            {OFFER_TYPE_BADGES[offer.type]}
          </Badge>
          <Badge variant={offer.isActive ? "success" : "outline"}>
            {offer.isActive ? "Actif" : "Inactif"}
          </Badge>
          {offer.featured ? (
            <Badge variant="outline" className="gap-1">
              <Star className="size-3" aria-hidden="true" /> En vedette
            </Badge>
          ) : null}
        </div>
        <p className="text-sm text-muted-foreground">
          {offer.reference} — {formatMonthlyPrice(offer.price)}
        </p>
        <p className="text-sm text-muted-foreground">
          {offer.cpu} • {offer.ram} • {offer.storage}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {offer.isActive ? (
            <Link to={`/offers/${offer.slug}`} className="hover:text-primary hover:underline">
              /offers/{offer.slug}
            </Link>
          ) : (
            <span>/offers/{offer.slug}</span>
          )}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button asChild variant="outline" size="sm">
          <Link
            to={`/admin/offers?edit=${offer.id}`}
            aria-label={`Modifier l'offre ${offer.title}`}
          >
            <Pencil aria-hidden="true" /> Modifier
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link
            to={`/admin/offers?delete=${offer.id}`}
            preventScrollReset
            aria-label={`Supprimer l'offre ${offer.title}`}
            className="text-destructive"
          >
            <Trash2 aria-hidden="true" /> Supprimer
          </Link>
        </Button>
      </div>
    </li>
  );
}

function DeleteForm({ offer, busy }: { offer: AdminOfferRow; busy: boolean }) {
  return (
    <Form method="post" action="/admin/offers">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={offer.id} />
      <Button type="submit" variant="destructive" disabled={busy}>
        Supprimer
      </Button>
    </Form>
  );
}

export default function AdminOffers({ loaderData, actionData }: Route.ComponentProps) {
  const { offers, form, editMissing, pendingDelete } = loaderData;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formAction?.startsWith("/admin/offers") === true;

  useEffect(() => {
    if (actionData?.error) {
      toast.error(actionData.error.title, { description: actionData.error.description });
    }
  }, [actionData]);

  const failedForm =
    actionData && (actionData.intent === "create" || actionData.intent === "update")
      ? actionData
      : undefined;
  const values = failedForm?.values ?? form?.values;
  const inlineError = actionData?.error && !hydrated ? actionData.error : undefined;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Gestion des offres</h1>
        <Button asChild>
          <Link to="/admin/offers?new=1">
            <Plus aria-hidden="true" /> Nouvelle offre
          </Link>
        </Button>
      </div>

      {inlineError ? (
        <div
          role="alert"
          className="rounded-md border border-destructive/50 bg-background p-4 text-destructive"
        >
          <p className="font-semibold">{inlineError.title}</p>
          {inlineError.description ? <p>{inlineError.description}</p> : null}
        </div>
      ) : null}

      {editMissing ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/50 bg-background p-4 text-destructive"
        >
          {ADMIN_MESSAGES.offerGone}
        </p>
      ) : null}

      {pendingDelete && !hydrated ? (
        // Without JavaScript, the confirmation is a step of its own (?delete=ID).
        <section
          aria-labelledby="confirm-delete"
          className="space-y-4 rounded-lg border border-destructive/50 bg-background p-6"
        >
          <h2 id="confirm-delete" className="text-lg font-semibold">
            {ADMIN_MESSAGES.deleteConfirm}
          </h2>
          <p>
            {pendingDelete.title} ({pendingDelete.reference})
          </p>
          <div className="flex gap-3">
            <DeleteForm offer={pendingDelete} busy={busy} />
            <Button asChild variant="outline">
              <Link to="/admin/offers">Annuler</Link>
            </Button>
          </div>
        </section>
      ) : null}

      {form && values ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">
              {form.mode === "create" ? "Créer une nouvelle offre" : "Modifier l'offre"}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <OfferForm
              key={form.mode === "create" ? "create" : `edit-${form.offerId}`}
              mode={form.mode}
              offerId={form.offerId}
              values={values}
              fieldErrors={failedForm?.fieldErrors ?? {}}
              busy={busy}
            />
          </CardContent>
        </Card>
      ) : null}

      <section aria-labelledby="offer-list" className="space-y-4">
        <h2 id="offer-list" className="text-xl font-semibold">
          Liste des offres
        </h2>
        {offers.length === 0 ? (
          <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
            {ADMIN_MESSAGES.offersEmpty}
          </p>
        ) : (
          <ul className="space-y-3">
            {offers.map((offer) => (
              <OfferListItem key={offer.id} offer={offer} />
            ))}
          </ul>
        )}
      </section>

      {hydrated ? (
        <Dialog
          open={pendingDelete !== null}
          onOpenChange={(open) => {
            if (!open) navigate("/admin/offers", { preventScrollReset: true, replace: true });
          }}
        >
          {pendingDelete ? (
            <DialogContent>
              <DialogHeader>
                <DialogTitle>{ADMIN_MESSAGES.deleteConfirm}</DialogTitle>
                <DialogDescription>
                  {pendingDelete.title} ({pendingDelete.reference}) sera supprimée définitivement.
                  Les demandes de contact liées sont conservées.
                </DialogDescription>
              </DialogHeader>
              <DialogFooter>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() =>
                    navigate("/admin/offers", { preventScrollReset: true, replace: true })
                  }
                >
                  Annuler
                </Button>
                <DeleteForm offer={pendingDelete} busy={busy} />
              </DialogFooter>
            </DialogContent>
          ) : null}
        </Dialog>
      ) : null}
    </div>
  );
}
