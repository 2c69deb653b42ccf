import { and, count, desc, eq, inArray, like, ne, or, sql, type SQL } from "drizzle-orm";
import { AVAILABLE_NOW } from "~/lib/offer-fields";
import { queueAvailabilityAlerts, waitingAlertsColumn } from "~/features/alerts/alerts.server";
import { ADMIN_PAGE_SIZE, type AdminOfferListState } from "./admin-offer-list";
import { OFFER_LIMITS } from "~/lib/limits";
import { likePattern } from "~/lib/offer-filters";
import { offerToFormValues, type OfferFormValues } from "./offer-form";
import type { OfferField, OfferInput } from "~/lib/offer-fields";
import { priceColumns } from "~/lib/offer-price";
import { slugCandidate } from "~/lib/slug";
import { bumpCatalogueVersion } from "./catalogue.server";
import { lockedLeaseScale } from "./lease.server";
import { db, type Database } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import { offers, type NewOffer, type Offer } from "~/platform/schema.server";
import { cardColumns, offersWithDatacenter } from "./offer-listing.server";

// The administrator's side: list, counts, writes.

/** How many times a write is retried when another one took the same slug in between. */
const SLUG_RETRIES = 50;

export class OfferNotFoundError extends Error {
  constructor(id: number) {
    super(`offer ${id} not found`);
    this.name = "OfferNotFoundError";
  }
}

/** Admin list conditions: search over title, reference, CPU, RAM and slug; type; active or not. */
function adminListConditions(state: AdminOfferListState): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (state.q) {
    // Both columns are lower-case and trigram-indexed; the pattern is a bound, escaped parameter.
    const pattern = likePattern(state.q);
    conditions.push(
      or(
        sql`${offers.searchText} like lower(${pattern})`,
        sql`${offers.slug} like lower(${pattern})`,
      ),
    );
  }
  if (state.type) conditions.push(eq(offers.type, state.type));
  if (state.status) conditions.push(eq(offers.isActive, state.status === "active"));
  return and(...conditions);
}

/**
 * One page of the admin list (spec section 7, newest first), with the total count of matches.
 * A page beyond the last one gives the last one.
 */
export async function listAdminOffers(
  state: AdminOfferListState,
  pageSize = ADMIN_PAGE_SIZE,
  database: Database = db(),
) {
  const where = adminListConditions(state);
  const [{ total }] = await database.select({ total: count() }).from(offers).where(where);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(state.page, pageCount);
  const rows =
    total === 0
      ? []
      : await offersWithDatacenter(database, {
          ...cardColumns,
          isActive: offers.isActive,
          // The demand the team can see (issue 30): confirmed `Me prévenir` alerts waiting.
          alertsWaiting: waitingAlertsColumn,
        })
          .where(where)
          .orderBy(desc(offers.createdAt), desc(offers.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize);
  return { offers: rows, total, page, pageCount };
}

export type AdminOfferRow = Awaited<ReturnType<typeof listAdminOffers>>["offers"][number];

export async function findOfferById(
  id: number,
  database: Database = db(),
): Promise<Offer | undefined> {
  const [offer] = await database.select().from(offers).where(eq(offers.id, id)).limit(1);
  return offer;
}

/**
 * Dashboard counts, exact, in one pass. At 10,000 offers this is an index-only scan of the
 * listing's (is_active, price, id) index, about 50 pages; measured in docs/decisions/014.
 */
export async function offerStats(database: Database = db()) {
  const [row] = await database
    .select({
      total: count(),
      active: sql<number>`(count(*) filter (where ${offers.isActive}))::int`,
    })
    .from(offers);
  return row;
}

/** True when `error` (or its cause) is PostgreSQL's unique violation on the offers' slug index. */
export function isSlugConflict(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505" && (constraint === undefined || constraint === "offers_slug_unique")) {
      return true;
    }
  }
  return false;
}

/**
 * The first free slug for `base` (spec section 5: base, then base-1, base-2...), ignoring the
 * offer being edited. Only a hint: the unique index decides, and the caller retries on conflict.
 */
export async function freeSlug(
  base: string,
  exceptId: number | undefined,
  database: Database = db(),
): Promise<string> {
  const rows = await database
    .select({ slug: offers.slug })
    .from(offers)
    .where(
      and(
        // base contains only [a-z0-9-], so it has no LIKE wildcard to escape.
        or(eq(offers.slug, base), like(offers.slug, `${base}-%`)),
        exceptId === undefined ? undefined : ne(offers.id, exceptId),
      ),
    );
  const taken = new Set(rows.map((r) => r.slug));
  for (let attempt = 0; ; attempt++) {
    const candidate = slugCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
}

async function withFreeSlug<T>(
  base: string,
  exceptId: number | undefined,
  database: Database,
  write: (slug: string) => Promise<T>,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    const slug = await freeSlug(base, exceptId, database);
    try {
      return await write(slug);
    } catch (error) {
      // Someone else took this slug between our read and our write: look again.
      if (!isSlugConflict(error) || retry >= SLUG_RETRIES) throw error;
    }
  }
}

/** A financed LOA offer none of whose durations the lease scale prices: it would have no price. */
export class UnpricedLeaseError extends Error {
  constructor() {
    super("the lease scale prices none of the offer's durations");
    this.name = "UnpricedLeaseError";
  }
}

/**
 * The columns the editor writes, in the transaction of the write: every field of the table but the
 * slug (made unique here), and the price columns, from the scale in force for a financed LOA offer
 * (decision 038).
 */
async function offerValues(input: OfferInput, tx: Database): Promise<Omit<NewOffer, "slug">> {
  const { slug: _slug, ...values } = input;
  const price = priceColumns(input, await lockedLeaseScale(tx));
  if (!price) throw new UnpricedLeaseError();
  return { ...values, ...price };
}

// Each field of the table is a column of the same name and type (a field without its column, or
// with another type, fails to compile here). The price is null in the input of a financed LOA
// offer: the scale gives it.
type ColumnsOf<T> = { [F in OfferField]: T extends Record<F, infer V> ? V : never };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _fieldsAreColumns: Same<
  Omit<ColumnsOf<Offer>, "price"> & { price: string | null },
  OfferInput
> = true;
void _fieldsAreColumns;

/**
 * Creates an offer with a unique slug derived from `input.slug`. Concurrent creations of the same
 * title all succeed with distinct slugs. The public catalogue version moves in the same transaction.
 */
export async function createOffer(
  input: OfferInput,
  database: Database = db(),
): Promise<{ id: number; slug: string }> {
  return withFreeSlug(input.slug, undefined, database, (slug) =>
    database.transaction(async (tx) => {
      const [row] = await tx
        .insert(offers)
        .values({ ...(await offerValues(input, tx)), slug })
        .returning({ id: offers.id, slug: offers.slug });
      await bumpCatalogueVersion(tx);
      return row;
    }),
  );
}

/** available_since moves to now() when an update makes the offer deliverable (the feed's date). */
const since = ({ delivery }: OfferInput): SQL =>
  AVAILABLE_NOW.includes(delivery)
    ? sql`case when ${inArray(offers.delivery, [...AVAILABLE_NOW])} then ${offers.availableSince} else now() end`
    : sql`${offers.availableSince}`;

/**
 * Updates every field and updated_at. The slug stays as it is when unchanged; a changed slug that
 * another offer uses gets the -1, -2 suffix like on creation.
 */
export async function updateOffer(
  id: number,
  input: OfferInput,
  database: Database = db(),
): Promise<{ id: number; slug: string }> {
  return withFreeSlug(input.slug, id, database, (slug) =>
    database.transaction(async (tx) => {
      const [row] = await tx
        .update(offers)
        .set({
          ...(await offerValues(input, tx)),
          slug,
          updatedAt: sql`now()`,
          availableSince: since(input),
        })
        .where(eq(offers.id, id))
        .returning({ id: offers.id, slug: offers.slug });
      if (!row) throw new OfferNotFoundError(id);
      await bumpCatalogueVersion(tx);
      // Back in stock: the confirmed alerts' mails, with the change or not at all (issue 30).
      await queueAvailabilityAlerts(id, tx);
      return row;
    }),
  );
}

/** Shows or hides an offer on the site. False when the offer is gone. */
export async function setOfferActive(
  id: number,
  isActive: boolean,
  database: Database = db(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const rows = await tx
      .update(offers)
      .set({ isActive, updatedAt: sql`now()` })
      .where(eq(offers.id, id))
      .returning({ id: offers.id });
    if (rows.length === 0) return false;
    await bumpCatalogueVersion(tx);
    // Shown again while in stock: the confirmed alerts' mails (issue 30).
    if (isActive) await queueAvailabilityAlerts(id, tx);
    return true;
  });
}

/** Deletes an offer; its contact requests stay (offer_id set to null). False when already gone. */
export async function deleteOffer(id: number, database: Database = db()): Promise<boolean> {
  return database.transaction(async (tx) => {
    const rows = await tx.delete(offers).where(eq(offers.id, id)).returning({ id: offers.id });
    if (rows.length === 0) return false;
    await bumpCatalogueVersion(tx);
    return true;
  });
}

/** What the editor pages' save comes to; the route turns it into a status and a toast. */
export type SaveOfferResult =
  | { kind: "saved"; id: number; slug: string }
  | { kind: "missing" }
  /** A financed LOA offer whose durations the scale does not price: nothing written. */
  | { kind: "unpriced" }
  | { kind: "failed" };

/**
 * Creates an offer or updates offer `target.id` from validated input. A database error is logged
 * and reported as `failed` (the page asks to try again); an offer deleted meanwhile is `missing`.
 */
export async function saveOffer(
  input: OfferInput,
  target: { mode: "create" } | { mode: "edit"; id: number },
  context: { requestId: string },
): Promise<SaveOfferResult> {
  try {
    const row =
      target.mode === "create" ? await createOffer(input) : await updateOffer(target.id, input);
    log.info(target.mode === "create" ? "offer created" : "offer updated", {
      requestId: context.requestId,
      offerId: row.id,
    });
    return { kind: "saved", ...row };
  } catch (error) {
    if (error instanceof OfferNotFoundError) return { kind: "missing" };
    if (error instanceof UnpricedLeaseError) return { kind: "unpriced" };
    log.error(`offer ${target.mode} failed`, { requestId: context.requestId, error });
    return { kind: "failed" };
  }
}

/** The list's row actions: show or hide an offer, delete it. */
export type OfferChange =
  { intent: "toggle"; id: number; active: boolean } | { intent: "delete"; id: number };

export type OfferChangeResult =
  { kind: "shown" | "hidden" | "deleted" } | { kind: "missing" } | { kind: "failed" };

/** Applies one row action; `missing` when the offer is already gone, `failed` on a database error. */
export async function changeOffer(
  change: OfferChange,
  context: { requestId: string },
): Promise<OfferChangeResult> {
  let done: boolean;
  try {
    done =
      change.intent === "delete"
        ? await deleteOffer(change.id)
        : await setOfferActive(change.id, change.active);
  } catch (error) {
    log.error(`offer ${change.intent} failed`, { requestId: context.requestId, error });
    return { kind: "failed" };
  }
  if (!done) return { kind: "missing" };
  log.info(change.intent === "delete" ? "offer deleted" : "offer visibility changed", {
    requestId: context.requestId,
    offerId: change.id,
  });
  if (change.intent === "delete") return { kind: "deleted" };
  return { kind: change.active ? "shown" : "hidden" };
}

export const COPY_SUFFIX = " (copie)";

/**
 * A copy of `source` to start the new-offer form from: its title says it is a copy and its slug
 * is left to the spec's rule (computed from the new title).
 */
export function offerCopyValues(source: Offer): OfferFormValues {
  const title = `${source.title.slice(0, OFFER_LIMITS.title - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
  return { ...offerToFormValues(source), title, slug: "" };
}
