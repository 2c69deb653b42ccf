import {
  and,
  asc,
  count,
  getTableColumns,
  desc,
  eq,
  gte,
  inArray,
  like,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { AVAILABLE_NOW } from "~/lib/delivery";
import { queueAvailabilityAlerts, waitingAlertsColumn } from "~/features/alerts/alerts.server";
import { ADMIN_PAGE_SIZE, type AdminOfferListState } from "~/lib/admin-offer-list";
import { OFFER_LIMITS } from "~/lib/limits";
import { facetCounts, type FacetCell, type FacetCounts } from "~/lib/offer-facets";
import {
  DEFAULT_SORT,
  likePattern,
  MINIMUM_FILTERS,
  REFERENCE_FILTERS,
  type MinimumFilterColumn,
  type OfferFilters,
  type OfferSort,
} from "~/lib/offer-filters";
import { OFFER_SEARCH } from "~/lib/offer-search";
import { offerToFormValues, type OfferFormValues } from "~/lib/offer-form";
import type { OfferField, OfferInput } from "~/lib/offer-fields";
import { slugCandidate } from "~/lib/slug";
import { byCatalogue } from "./catalogue-memo.server";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { bumpCatalogueVersion } from "./catalogue.server";
import { db, type Database } from "~/platform/db.server";
import { log } from "~/platform/log.server";
import { datacenters, offers, type NewOffer, type Offer } from "~/platform/schema.server";

export const LISTING_PAGE_SIZE = 24;

/** The columns an offer's summary needs (public card, admin list). */
export const cardColumns = {
  id: offers.id,
  slug: offers.slug,
  title: offers.title,
  reference: offers.reference,
  type: offers.type,
  featured: offers.featured,
  cpu: offers.cpu,
  ram: offers.ram,
  storage: offers.storage,
  price: offers.price,
  setupFee: offers.setupFee,
  engagement: offers.engagement,
  contractType: offers.contractType,
  delivery: offers.delivery,
  deliveryDays: offers.deliveryDays,
  datacenter: offers.datacenter,
  datacenterName: datacenters.name,
};

export type OfferCardData = {
  [K in keyof typeof cardColumns]: K extends keyof Offer ? Offer[K] : string | null;
};

/** Offers with their datacenter's name (a left join: an offer may have none). */
function offersWithDatacenter<T extends SelectedFields>(database: Database, columns: T) {
  return database
    .select(columns)
    .from(offers)
    .leftJoin(datacenters, eq(offers.datacenter, datacenters.code));
}

/** A full offer row with its datacenter's name. */
const detailColumns = { ...getTableColumns(offers), datacenterName: datacenters.name };
export type OfferDetail = Offer & { datacenterName: string | null };

/** Active offers matching the search: what the counts' cells are grouped over (offer-facets.ts). */
function searchConditions(filters: OfferFilters): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(offers.isActive, true)];
  if (filters.searchTerm) {
    // Case-insensitive substring of title, reference, cpu or ram: search_text holds the four,
    // lower-cased, with a separator that no search term contains (schema.server.ts).
    const pattern = likePattern(filters.searchTerm);
    conditions.push(sql`${offers.searchText} like lower(${pattern})`);
  }
  return conditions;
}

/** The price and number filters. */
function rangeConditions(filters: OfferFilters): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [];
  if (filters.minPrice !== undefined) conditions.push(gte(offers.price, String(filters.minPrice)));
  if (filters.maxPrice !== undefined) conditions.push(lte(offers.price, String(filters.maxPrice)));
  // NULL >= n is not true: an offer without the number is left out once the filter is set.
  for (const { field, column } of MINIMUM_FILTERS) {
    const at = filters[field];
    if (at !== undefined) conditions.push(gte(offers[column], at));
  }
  return conditions;
}

/** Spec section 7, Listing: active offers only, the filters combined with AND. */
export function listingConditions(filters: OfferFilters): SQL | undefined {
  const conditions = [...searchConditions(filters), ...rangeConditions(filters)];
  if (filters.type) conditions.push(eq(offers.type, filters.type));
  if (filters.commitment !== undefined) conditions.push(eq(offers.engagement, filters.commitment));
  for (const { param, field } of REFERENCE_FILTERS) {
    const code = filters[param];
    if (code) conditions.push(eq(offers[field], code));
  }
  if (filters.availableNow) conditions.push(inArray(offers.delivery, [...AVAILABLE_NOW]));
  return and(...conditions);
}

/**
 * The cells of the listing's counts (offer-facets.ts), in one query. Without a search: the whole
 * active catalogue grouped by the selects' fields, the price to the euro, RAM and cores (the
 * ranges are applied to the cells). With one: its matches within the ranges, by the selects'
 * fields. A real promise (drizzle's query runs again at each `then`): it is kept and awaited again.
 */
export async function listingFacetCells(
  filters: OfferFilters,
  database: Database = db(),
): Promise<FacetCell[]> {
  const fields = Object.fromEntries(
    REFERENCE_FILTERS.map(({ field }) => [field, offers[field]]),
  ) as Record<(typeof REFERENCE_FILTERS)[number]["field"], (typeof offers)["datacenter"]>;
  const minimumColumns = Object.fromEntries(
    MINIMUM_FILTERS.map(({ column }) => [column, offers[column]]),
  ) as Record<MinimumFilterColumn, (typeof offers)["ramGb"]>;
  const selects = {
    type: offers.type,
    engagement: offers.engagement,
    delivery: offers.delivery,
    ...fields,
  };
  const search = Boolean(filters.searchTerm);
  const groups = search
    ? selects
    : {
        ...selects,
        priceFloor: sql<number>`floor(${offers.price})::int`,
        priceCeil: sql<number>`ceil(${offers.price})::int`,
        ...minimumColumns,
      };
  const where = [...searchConditions(filters), ...(search ? rangeConditions(filters) : [])];
  return database
    .select({ ...groups, count: count() })
    .from(offers)
    .where(and(...where))
    .groupBy(...Object.values(groups));
}

/**
 * Each order follows an index from its first column to its tie-breaker (schema.server.ts), so a
 * page is read in index order: (is_active, created_at desc, id desc) for the newest first,
 * (is_active, price, id) forwards or backwards for the prices. Equal prices keep a stable order.
 */
const ORDERS: Record<OfferSort, SQL[]> = {
  newest: [desc(offers.createdAt), desc(offers.id)],
  price_asc: [asc(offers.price), asc(offers.id)],
  price_desc: [desc(offers.price), desc(offers.id)],
};

/** The cells without a search (the whole active catalogue), kept per catalogue version. */
const currentCatalogueCells = byCatalogue(() => listingFacetCells({}));

/**
 * The cells of `filters`. Without a search they are the whole active catalogue's, the same for any
 * other filter: computed once per catalogue version (every offer write bumps it, in its
 * transaction; catalogue-memo.server.ts), on any instance. Another database than the server's (a
 * transaction, a script's) reads its own. A search groups its matches (at most a few hundred
 * rows: the trigram index).
 */
async function facetCells(filters: OfferFilters, database: Database): Promise<FacetCell[]> {
  if (filters.searchTerm) return listingFacetCells(filters, database);
  return database === db() ? currentCatalogueCells() : listingFacetCells({}, database);
}

/**
 * One page of the listing in the chosen order (newest first by default), with the total count;
 * with `counts`, also each select choice's count (the total then comes from the same query).
 */
export async function listActiveOffers(
  filters: OfferFilters,
  page = 1,
  pageSize = LISTING_PAGE_SIZE,
  database: Database = db(),
  sort: OfferSort = DEFAULT_SORT,
  options: { counts?: boolean } = {},
): Promise<{ offers: OfferCardData[]; total: number; counts?: FacetCounts }> {
  let total: number;
  let counts: FacetCounts | undefined;
  if (options.counts) {
    counts = facetCounts(await facetCells(filters, database), filters);
    total = counts.total;
  } else {
    const where = listingConditions(filters);
    [{ total }] = await database.select({ total: count() }).from(offers).where(where);
  }
  if (total === 0) return { offers: [], total, counts };
  const rows = await listingPageQuery(filters, page, pageSize, database, sort);
  return { offers: rows, total, counts };
}

/** The query of one listing page (exported for the test that reads its plan). */
export function listingPageQuery(
  filters: OfferFilters,
  page: number,
  pageSize: number,
  database: Database,
  sort: OfferSort,
) {
  return offersWithDatacenter(database, cardColumns)
    .where(listingConditions(filters))
    .orderBy(...ORDERS[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The same page with every column (the API: the same offers in the same order). */
export function listingPageDetails(
  filters: OfferFilters,
  page: number,
  pageSize: number,
  database: Database,
  sort: OfferSort,
): Promise<OfferDetail[]> {
  return offersWithDatacenter(database, detailColumns)
    .where(listingConditions(filters))
    .orderBy(...ORDERS[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** The home page's 'Offres à la une': active featured offers, newest first (partial index). */
export function listFeaturedOffers(limit = 3, database: Database = db()): Promise<OfferCardData[]> {
  return offersWithDatacenter(database, cardColumns)
    .where(and(eq(offers.featured, true), eq(offers.isActive, true)))
    .orderBy(desc(offers.createdAt), desc(offers.id))
    .limit(limit);
}

/** Active offers with these slugs, in the order given; unknown and inactive ones are left out. */
export async function findActiveOffersBySlugs(
  slugs: readonly string[],
  database: Database = db(),
): Promise<OfferDetail[]> {
  if (slugs.length === 0) return [];
  const rows = await offersWithDatacenter(database, detailColumns).where(
    and(inArray(offers.slug, [...slugs]), eq(offers.isActive, true)),
  );
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return slugs.flatMap((slug) => bySlug.get(slug) ?? []);
}

/** findActiveOfferBySlug on the current database, kept per catalogue version (offer pages). */
export const currentOfferBySlug = byCatalogue((slug) => findActiveOfferBySlug(slug));

export async function findActiveOfferBySlug(
  slug: string,
  database: Database = db(),
): Promise<OfferDetail | undefined> {
  const [offer] = await offersWithDatacenter(database, detailColumns)
    .where(and(eq(offers.slug, slug), eq(offers.isActive, true)))
    .limit(1);
  return offer;
}

// The contact form's offer field (docs/decisions/019): every active offer while the catalogue is
// small, a search by title or reference beyond.

const choiceColumns = {
  id: offers.id,
  title: offers.title,
  reference: offers.reference,
  price: offers.price,
};

export async function countActiveOffers(database: Database = db()): Promise<number> {
  const [{ total }] = await database
    .select({ total: count() })
    .from(offers)
    .where(eq(offers.isActive, true));
  return total;
}

/** An active offer as the field shows it, or undefined. */
export async function findOfferChoice(
  id: number | null | undefined,
  database: Database = db(),
): Promise<OfferChoice | undefined> {
  if (!id) return undefined;
  const [row] = await database
    .select(choiceColumns)
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.isActive, true)))
    .limit(1);
  return row;
}

/**
 * Active offers whose title or reference contains `term` (any case), by title, at most `limit`;
 * `more` when there are others. The trigram index on search_text (title, reference, cpu, ram)
 * narrows the rows; the title/reference test then drops matches found only in cpu or ram.
 */
export async function searchOfferChoices(
  term: string,
  limit: number = OFFER_SEARCH.limit,
  database: Database = db(),
): Promise<{ offers: OfferChoice[]; more: boolean }> {
  const pattern = likePattern(term);
  const rows = await database
    .select(choiceColumns)
    .from(offers)
    .where(
      and(
        eq(offers.isActive, true),
        sql`${offers.searchText} like lower(${pattern})`,
        or(
          sql`lower(${offers.title}) like lower(${pattern})`,
          sql`lower(${offers.reference}) like lower(${pattern})`,
        ),
      ),
    )
    .orderBy(asc(offers.title), asc(offers.id))
    .limit(limit + 1);
  return { offers: rows.slice(0, limit), more: rows.length > limit };
}

/** Contact selector: active offers as id, title, reference and price, by title. */
export function listOfferChoices(database: Database = db()) {
  return database
    .select(choiceColumns)
    .from(offers)
    .where(eq(offers.isActive, true))
    .orderBy(asc(offers.title), asc(offers.id));
}

export type OfferChoice = Awaited<ReturnType<typeof listOfferChoices>>[number];

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

/**
 * The choices of the `reference` fields (offer-fields.ts), by name: the admin form's options and
 * the listing's filters (REFERENCE_FILTERS).
 */
/** offerReferenceOptions on the current database, kept per catalogue version (the listing). */
export const currentReferenceOptions = byCatalogue(() => offerReferenceOptions());

export async function offerReferenceOptions(
  database: Database = db(),
): Promise<Partial<Record<OfferField, { value: string; label: string }[]>>> {
  const rows = await database
    .select({ value: datacenters.code, label: datacenters.name })
    .from(datacenters)
    .orderBy(asc(datacenters.name));
  return { datacenter: rows };
}

/** The columns the editor writes: every field of the table but the slug (made unique here). */
function offerValues(input: OfferInput): Omit<NewOffer, "slug"> {
  const { slug: _slug, ...values } = input;
  return values;
}

// Each field of the table is a column of the same name and type (a field without its column, or
// with another type, fails to compile here).
type ColumnsOf<T> = { [F in OfferField]: T extends Record<F, infer V> ? V : never };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _fieldsAreColumns: Same<ColumnsOf<Offer>, OfferInput> = true;
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
        .values({ ...offerValues(input), slug })
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
        .set({ ...offerValues(input), slug, updatedAt: sql`now()`, availableSince: since(input) })
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
  { kind: "saved"; id: number; slug: string } | { kind: "missing" } | { kind: "failed" };

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
