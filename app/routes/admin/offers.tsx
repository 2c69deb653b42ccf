import { Copy, Eye, EyeOff, Pencil, Plus, Search, Star, Trash2 } from "lucide-react";
import { IconSprite, SpriteIcon } from "~/components/icon-sprite";
import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { OfferTypeOptions } from "~/features/offers/offer-type-options";
import { FeaturedBadge, OfferTypeBadge } from "~/components/offer-badges";
import { Badge } from "~/components/ui/badge";
import { AlertsWaitingBadge } from "~/features/alerts/alerts-waiting";
import { SearchesWaitingCard } from "~/features/saved-searches/searches-waiting";
import { waitingSearchCounts } from "~/features/saved-searches/saved-searches.server";
import { Pager } from "~/components/pager";
import { ensureCanonicalQuery } from "~/platform/canonical-query";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { NativeSelect } from "~/components/ui/input";
import { SearchInput } from "~/components/ui/search-input";
import { ADMIN_MESSAGES, type FlashKey } from "~/lib/admin-messages";
import { adminMeta } from "~/routes/admin/meta";
import {
  ADMIN_OFFER_LIST_PARAMS,
  adminOfferListPath,
  adminOfferListSearch,
  hasListFilters,
  withReturnTo,
  type AdminOfferListState,
} from "~/features/offers/admin-offer-list";
import {
  parseAdminOfferList,
  safeOfferListReturn,
} from "~/features/offers/admin-offer-list-schema";
import { OFFER_TYPE_BADGES } from "~/lib/domain";
import { pluralize } from "~/lib/format";
import { monthlyLabel } from "~/lib/money";
import { useRootData } from "~/hooks/use-root-data";
import { MAX_SEARCH_LENGTH } from "~/lib/offer-filters";
import { ActionFailureAlert } from "~/components/admin/action-failure-alert";
import {
  changeOffer,
  findOfferById,
  listAdminOffers,
  type AdminOfferRow,
} from "~/features/offers/offers.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/features/accounts/auth.server";
import { actionFailure, actionDone, idSchema, parseId, readForm } from "~/platform/form.server";
import { offerAudience } from "~/features/attribution/offer-views.server";
import type { Route } from "./+types/offers";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Gestion des offres");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, "offers");
  const params = new URL(request.url).searchParams;
  const state = parseAdminOfferList(params);
  // Addresses of the former in-page editor (bookmarks) lead to the editor pages.
  const legacyEdit = parseId(params.get("edit"));
  if (legacyEdit !== undefined) throw redirect(`/admin/offers/${legacyEdit}`);
  if (params.get("new") === "1") throw redirect("/admin/offers/new");

  const deleteId = parseId(params.get("delete"));
  const [list, toDelete, searchesWaiting] = await Promise.all([
    listAdminOffers(state),
    deleteId === undefined ? undefined : findOfferById(deleteId),
    waitingSearchCounts(),
  ]);
  // Views and requests of the last 30 days, side by side (issue 42).
  const audience = await offerAudience(list.offers.map((offer) => offer.id));
  const current: AdminOfferListState = { ...state, page: list.page };
  // One address per list state (the GET form also sends empty fields; a page past the end
  // gives the last one): bookmarks, the pager and the return path all agree.
  const target = adminOfferListPath(current);
  ensureCanonicalQuery(
    params,
    ADMIN_OFFER_LIST_PARAMS,
    adminOfferListSearch(current),
    deleteId === undefined ? target : withParam(target, "delete", deleteId),
  );
  return {
    offers: list.offers.map((offer) => ({
      ...offer,
      audience: audience.get(offer.id) ?? { views: 0, requests: 0 },
    })),
    total: list.total,
    pageCount: list.pageCount,
    state: current,
    pendingDelete: toDelete
      ? { id: toDelete.id, title: toDelete.title, reference: toDelete.reference }
      : null,
    deleteMissing: deleteId !== undefined && !toDelete,
    searchesWaiting,
  };
}

function failure(status: number, error: string, description?: string) {
  return actionFailure(status, { error, description });
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), id: idSchema.optional().catch(undefined) }),
  z.object({
    intent: z.literal("toggle"),
    id: idSchema.optional().catch(undefined),
    active: z.enum(["1", "0"]).optional().catch(undefined),
  }),
]);

/** Row actions of the list: show/hide and delete. Creation and edits have their own pages. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdmin(request, "offers");
  const parsed = await readForm(request, actionSchema);
  // The forms post to the list's own address (page, search, filters): go back there.
  const url = new URL(request.url);
  const returnTo = safeOfferListReturn(`${url.pathname}${url.search}`);
  if (!parsed.success) return failure(400, "Requête invalide");
  const input = parsed.data;
  const failedTitle =
    input.intent === "delete" ? ADMIN_MESSAGES.offerDeleteFailed : ADMIN_MESSAGES.offerToggleFailed;
  if (input.id === undefined || (input.intent === "toggle" && input.active === undefined)) {
    return failure(400, failedTitle, ADMIN_MESSAGES.offerGone);
  }
  const result = await changeOffer(
    input.intent === "delete"
      ? { intent: "delete", id: input.id }
      : { intent: "toggle", id: input.id, active: input.active === "1" },
    context,
  );
  if (result.kind === "failed") return failure(503, failedTitle, "Veuillez réessayer.");
  if (result.kind === "missing") return failure(404, failedTitle, ADMIN_MESSAGES.offerGone);
  return actionDone(request, context, CHANGE_FLASH[result.kind], returnTo, {
    actor: user,
    action: JOURNAL_OFFER_CHANGE[result.kind],
    target: `offre ${input.id}`,
  });
}

const JOURNAL_OFFER_CHANGE = {
  deleted: "offer-deleted",
  shown: "offer-shown",
  hidden: "offer-hidden",
} as const;

const CHANGE_FLASH = {
  deleted: "offerDeleted",
  shown: "offerActivated",
  hidden: "offerDeactivated",
} as const satisfies Record<string, FlashKey>;

function withParam(path: string, name: string, value: string | number) {
  return `${path}${path.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;
}

// Fifty rows per page: rows and their buttons use short classes (.offer-row, .row-action in
// app.css) and sprite icons, so that a page of the list stays within 200 KB and 5,000 elements (issue 11).
const ROW_ICONS = {
  eye: Eye,
  "eye-off": EyeOff,
  pencil: Pencil,
  copy: Copy,
  trash: Trash2,
  star: Star,
};
const rowIcon = (id: keyof typeof ROW_ICONS) => <SpriteIcon id={id} />;

function OfferListItem({
  offer,
  listPath,
  busy,
}: {
  offer: AdminOfferRow & { audience: { views: number; requests: number } };
  listPath: string;
  busy: boolean;
}) {
  const { pricing } = useRootData().site;
  return (
    <li className="offer-row">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{offer.title}</h3>
          <OfferTypeBadge type={offer.type}>{OFFER_TYPE_BADGES[offer.type]}</OfferTypeBadge>
          <Badge variant={offer.isActive ? "success" : "outline"}>
            {offer.isActive ? "Actif" : "Inactif"}
          </Badge>
          {offer.featured ? <FeaturedBadge /> : null}
          <AlertsWaitingBadge count={offer.alertsWaiting} />
        </div>
        <p className="offer-row-meta">
          {offer.reference} — {monthlyLabel(offer.price, pricing)}
        </p>
        <p className="offer-row-meta">
          {offer.cpu} • {offer.ram} • {offer.storage}
        </p>
        <p className="offer-row-meta" data-testid="offer-audience">
          30 derniers jours : {offer.audience.views}{" "}
          {pluralize(offer.audience.views, "vue", "vues")} • {offer.audience.requests}{" "}
          {pluralize(offer.audience.requests, "demande", "demandes")}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {offer.isActive ? (
            <a href={`/offers/${offer.slug}`} className="hover:text-primary hover:underline">
              /offers/{offer.slug}
            </a>
          ) : (
            <span>/offers/{offer.slug}</span>
          )}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {/* Posts to the list's own address: the action comes back to this very page. */}
        <Form method="post" action={listPath}>
          <input type="hidden" name="intent" value="toggle" />
          <input type="hidden" name="id" value={offer.id} />
          <input type="hidden" name="active" value={offer.isActive ? "0" : "1"} />
          <button
            type="submit"
            className="row-action"
            disabled={busy}
            aria-label={`${offer.isActive ? "Désactiver" : "Activer"} l'offre ${offer.title}`}
          >
            {rowIcon(offer.isActive ? "eye-off" : "eye")}
            {offer.isActive ? "Désactiver" : "Activer"}
          </button>
        </Form>
        <Link
          to={withReturnTo(`/admin/offers/${offer.id}`, listPath)}
          className="row-action"
          aria-label={`Modifier l'offre ${offer.title}`}
        >
          {rowIcon("pencil")} Modifier
        </Link>
        <Link
          to={withReturnTo(`/admin/offers/new?from=${offer.id}`, listPath)}
          className="row-action"
          aria-label={`Dupliquer l'offre ${offer.title}`}
        >
          {rowIcon("copy")} Dupliquer
        </Link>
        <Link
          to={withParam(listPath, "delete", offer.id)}
          preventScrollReset
          className="row-action text-destructive"
          aria-label={`Supprimer l'offre ${offer.title}`}
        >
          {rowIcon("trash")} Supprimer
        </Link>
      </div>
    </li>
  );
}

/** The list's search and filters: a GET form, the same with or without JavaScript. */
function ListFilters({ state }: { state: AdminOfferListState }) {
  return (
    <Form
      method="get"
      action="/admin/offers"
      role="search"
      aria-label="Filtrer les offres"
      className="grid gap-4 rounded-lg border bg-card p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto]"
    >
      <Field id="offers-q" label="Rechercher">
        <SearchInput
          name="q"
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Titre, référence, CPU, RAM, slug..."
          defaultValue={state.q ?? ""}
        />
      </Field>
      <Field id="offers-type" label="Type">
        <NativeSelect name="type" defaultValue={state.type ?? ""}>
          <option value="">Tous les types</option>
          <OfferTypeOptions />
        </NativeSelect>
      </Field>
      <Field id="offers-status" label="Statut">
        <NativeSelect name="status" defaultValue={state.status ?? ""}>
          <option value="">Toutes</option>
          <option value="active">Actives</option>
          <option value="inactive">Inactives</option>
        </NativeSelect>
      </Field>
      <div className="flex items-end gap-2">
        <Button type="submit">
          <Search aria-hidden="true" /> Filtrer
        </Button>
        {hasListFilters(state) ? (
          <Button asChild variant="ghost">
            <Link to="/admin/offers">Effacer les filtres</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

export default function AdminOffers({ loaderData, actionData }: Route.ComponentProps) {
  const { offers, total, pageCount, state, pendingDelete, deleteMissing } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const listPath = adminOfferListPath(state);
  const filtered = hasListFilters(state);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Gestion des offres</h1>
        <Button asChild>
          <Link to={withReturnTo("/admin/offers/new", listPath)}>
            <Plus aria-hidden="true" /> Nouvelle offre
          </Link>
        </Button>
      </div>

      <ActionFailureAlert answer={actionData} />

      {deleteMissing ? <FormAlert>{ADMIN_MESSAGES.offerGone}</FormAlert> : null}

      {/* Opened by the rows' links (?delete=ID). */}
      <ConfirmDialog
        open={pendingDelete !== null}
        id="confirm-delete"
        title={ADMIN_MESSAGES.deleteConfirm}
        description={`${pendingDelete?.title} (${pendingDelete?.reference}) sera supprimée définitivement. Les demandes de contact liées sont conservées.`}
        inlineDescription={`${pendingDelete?.title} (${pendingDelete?.reference})`}
        action={listPath}
        fields={{ intent: "delete", id: pendingDelete?.id ?? "" }}
        confirmLabel="Supprimer"
        cancelTo={listPath}
      />

      <ListFilters key={listPath} state={state} />

      <section aria-labelledby="offer-list" className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="offer-list" className="text-xl font-semibold">
            Liste des offres
          </h2>
          {total > 0 ? (
            <p className="text-sm text-muted-foreground" role="status">
              {total} {pluralize(total, "offre", "offres")}
              {pageCount > 1 ? ` — page ${state.page} sur ${pageCount}` : ""}
            </p>
          ) : null}
        </div>
        {offers.length === 0 ? (
          <div className="space-y-3 rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
            <p>{filtered ? ADMIN_MESSAGES.offersNoMatch : ADMIN_MESSAGES.offersEmpty}</p>
            {filtered ? (
              <Button asChild variant="outline">
                <Link to="/admin/offers">Effacer les filtres</Link>
              </Button>
            ) : null}
          </div>
        ) : (
          <ul className="space-y-3">
            <IconSprite icons={ROW_ICONS} />
            {offers.map((offer) => (
              <OfferListItem key={offer.id} offer={offer} listPath={listPath} busy={busy} />
            ))}
          </ul>
        )}
        <Pager
          page={state.page}
          pageCount={pageCount}
          href={(page) => adminOfferListPath(state, page)}
          className=""
        />
      </section>

      <SearchesWaitingCard searches={loaderData.searchesWaiting} />
    </div>
  );
}
