import { sql } from "drizzle-orm";
import { slugify } from "../../app/lib/slug";
import * as catalogue from "../../app/features/offers/catalogue.server";
import type { Database } from "../../app/platform/db.server";
import { offers, type NewOffer } from "../../app/platform/schema.server";
import { loadDemoOffers } from "../../app/features/setup/seed.server";
import { readLeaseScale } from "../../app/features/offers/lease.server";
import { newOfferPriceSource, priceColumns } from "../../app/lib/offer-price";

// The data at scale, reproducible (seeded PRNG, generate_series): the demo offers plus generated
// ones, contact requests with notes and history; what each index buys; the dashboard's plans.
export const BENCH_ADMIN = {
  email: "bench-admin@example.fr",
  password: "bench admin password 2026",
};

function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CPUS = [
  { name: "AMD EPYC 7543 (32 cœurs / 64 threads)", family: "EPYC 7543", base: 420 },
  { name: "AMD EPYC 9254 (24 cœurs Zen 4)", family: "EPYC 9254", base: 520 },
  { name: "AMD EPYC 7313P (16 cœurs)", family: "EPYC 7313P", base: 260 },
  { name: "AMD EPYC 4344P (8 cœurs)", family: "EPYC 4344P", base: 110 },
  { name: "AMD Ryzen 9 7950X (16 cœurs / 32 threads)", family: "Ryzen 7950X", base: 150 },
  { name: "AMD Ryzen 7 7700 (8 cœurs)", family: "Ryzen 7700", base: 80 },
  { name: "Intel Xeon E-2388G (8 cœurs / 16 threads)", family: "Xeon E-2388G", base: 95 },
  { name: "Intel Xeon E-2236 (6 cœurs)", family: "Xeon E-2236", base: 55 },
  { name: "Intel Xeon Silver 4310 (12 cœurs)", family: "Xeon Silver 4310", base: 190 },
  { name: "Intel Xeon Gold 6338 (32 cœurs)", family: "Xeon Gold 6338", base: 480 },
  { name: "2 × Intel Xeon Gold 5318Y (48 cœurs)", family: "Bi-Xeon 5318Y", base: 640 },
  { name: "Intel Atom C3758 (8 cœurs)", family: "Atom C3758", base: 25 },
];

const RAMS = [
  ["16 Go DDR4", 0],
  ["32 Go DDR4 ECC", 10],
  ["64 Go DDR4 ECC", 30],
  ["128 Go DDR5", 60],
  ["256 Go DDR4 ECC", 120],
  ["384 Go DDR5 ECC", 180],
  ["512 Go DDR4 ECC", 260],
  ["1 To DDR5 ECC", 520],
] as const;

const STORAGES = [
  ["2 × 480 Go SSD", 0],
  ["2 × 1 To NVMe", 15],
  ["2 × 1,92 To NVMe", 35],
  ["2 × 3,84 To NVMe", 70],
  ["4 × 3,84 To NVMe Gen4", 140],
  ["4 × 12 To SATA + 2 × 480 Go SSD", 90],
  ["2 × 2 To HDD", 5],
] as const;

const NETWORKS = ["1 Gbit/s illimité", "10 Gbit/s illimité", "25 Gbit/s redondé", null];

const LINES = ["Performance", "Essentiel", "Pro", "Business", "Cloud", "Stockage", "Calcul"];

const DED_CONTRACTS = ["Mensuel sans engagement", "Engagement 6 mois", "Engagement 12 mois"];

const LOA_CONTRACTS = ["LOA 24 mois", "LOA 36 mois", "LOA 48 mois"];

/**
 * The generated LOA offers' durations and stated duration, by offer number (no draw from the PRNG:
 * the rest of the data stays as it was). The third states a duration it does not offer: its price
 * is the first offered one's (decision 038).
 */
const LEASES = [
  { leaseDurations: [24, 36], loaMonths: 36 },
  { leaseDurations: [36, 48], loaMonths: null },
  { leaseDurations: [48, 60], loaMonths: 36 },
  { leaseDurations: [24, 36, 48, 60], loaMonths: 60 },
];

export const BENCH_OFFERS = 10_000;

export const BENCH_CONTACTS = 100_000;

/** `count` offers in all: the demo catalogue plus generated ones, about 5 % of them inactive. */
export async function generateCatalogue(db: Database, count = BENCH_OFFERS): Promise<number> {
  const demo = await loadDemoOffers(db);
  const scale = await readLeaseScale(db);
  const random = prng(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2026, 9, 1) - start;
  const rows: NewOffer[] = [];
  for (let n = 1; rows.length < count - demo; n++) {
    const cpu = pick(CPUS);
    const [ram, ramPrice] = pick(RAMS);
    const [storage, storagePrice] = pick(STORAGES);
    const loa = random() < 0.3;
    const title = `${loa ? "LOA " : ""}${cpu.family} ${pick(LINES)} ${n}`;
    const price = (cpu.base + ramPrice + storagePrice) * (loa ? 0.8 : 1) * (0.85 + random() * 0.3);
    const createdAt = new Date(start + Math.floor(random() * span));
    const updatedAt = new Date(createdAt.getTime() + Math.floor(random() * 90 * 86_400_000));
    const withMeta = random() < 0.3;
    const row: NewOffer = {
      slug: `${slugify(title)}`,
      title,
      reference: `${loa ? "LOA" : "DED"}-${cpu.family.replace(/[^A-Za-z0-9]+/g, "").toUpperCase()}-${String(n).padStart(5, "0")}`,
      type: loa ? "loa" : "dedicated",
      featured: random() < 0.05,
      cpu: cpu.name,
      ram,
      storage,
      network: pick(NETWORKS),
      price: price.toFixed(2),
      engagement: loa || random() < 0.4,
      contractType: loa ? pick(LOA_CONTRACTS) : pick(DED_CONTRACTS),
      metaTitle: withMeta ? `Serveur ${cpu.family} — ${ram}` : null,
      metaDescription: withMeta ? `${title} : ${cpu.name}, ${ram}, ${storage}.` : null,
      isActive: random() >= 0.05,
      description: `## ${title}\n\nUn serveur **${cpu.family}** avec ${ram} et ${storage}.\n\n- Livraison en moins de 24h\n- Protection DDoS incluse\n- Support 7j/7`,
      createdAt,
      updatedAt,
      // Financed at about 32 months of the rent: the scale's rent is near the drawn price.
      ...(loa ? { financedAmount: (price * 32).toFixed(2), ...LEASES[n % LEASES.length] } : {}),
    };
    rows.push(loa ? { ...row, ...priceColumns(newOfferPriceSource(row), scale) } : row);
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db.insert(offers).values(rows.slice(i, i + 500));
  }
  await catalogue.bumpCatalogueVersion(db);
  // What PostgreSQL's autovacuum does after a bulk load (statistics, visibility map).
  await db.execute(sql`vacuum analyze`);
  return demo + rows.length;
}

/**
 * `count` contact requests in a few statements (generate_series), reproducible: three years of
 * requests, oldest first, most of them completed, recent ones pending; a third about an offer (with
 * its snapshot), one in ten with a long message, one in fifty suspected spam; notes on one in ten,
 * a status change on one in four of those not pending. The per-status counters' trigger is off
 * during the load and the counters rebuilt after (what a restore does), then checked exact.
 */
export async function generateContactRequests(db: Database, count = BENCH_CONTACTS) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table contact_requests disable trigger contact_request_counts_sync`);
    await tx.execute(sql`
      with numbered as (
        select g, (g::bigint * 2654435761 % 1000) / 1000.0 as r,
          1 + (g::bigint * 7919 % (select max(id) from offers)) as offer_id
        from generate_series(1, ${count}::int) as g
      )
      insert into contact_requests (name, email, phone, message, offer_id, offer_title,
        offer_reference, status, suspected_spam, created_at, updated_at)
      select
        (array['Jean','Marie','Pierre','Sophie','Luc','Claire','Antoine','Julie','Nicolas','Camille'])[1 + g % 10]
          || ' ' || (array['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand',
          'Leroy','Moreau','Simon','Laurent'])[1 + (g / 10) % 12],
        'client' || g || '@' || (array['example.fr','exemple.com','societe.fr','hebergeur.net'])[1 + g % 4],
        case when g % 3 = 0 then null else '+33 6 ' || lpad((g % 100000000)::text, 8, '0') end,
        case when g % 10 = 0
          then repeat('Bonjour, nous préparons la migration de notre infrastructure et souhaitons '
            || 'comparer vos offres de serveurs dédiés et de location avec option d''achat. ', 12)
            || 'Merci de nous rappeler. Demande n° ' || g
          else 'Bonjour, je souhaite un devis pour un serveur. Demande n° ' || g end,
        o.id, o.title, o.reference,
        (case
          when g > ${count}::int * 0.97 then 'pending'
          when r < 0.08 then 'pending'
          when r < 0.2 then 'in_progress'
          when r < 0.85 then 'completed'
          else 'cancelled' end)::contact_status,
        g % 50 = 0,
        timestamptz '2023-11-01 08:00:00+00' + (g::float8 / ${count}::int) * interval '3 years'
          + (g::bigint * 104729 % 36000) * interval '1 second',
        timestamptz '2023-11-01 08:00:00+00' + (g::float8 / ${count}::int) * interval '3 years'
          + (g::bigint * 104729 % 36000) * interval '1 second' + (g % 20) * interval '1 day'
      from numbered
      left join offers o on o.id = case when g % 3 = 1 then numbered.offer_id end
      order by g`);
    await tx.execute(sql`alter table contact_requests enable trigger contact_request_counts_sync`);
    await tx.execute(sql`select refresh_contact_request_counts()`);
    await tx.execute(sql`
      insert into contact_notes (contact_request_id, author_email, body, created_at)
      select c.id, 'admin@example.fr',
        case k when 1 then 'Client rappelé, devis envoyé.' else 'Relance prévue la semaine prochaine.' end,
        c.created_at + k * interval '1 day'
      from contact_requests c cross join generate_series(1, 2) as k
      where c.id % 10 = 0`);
    await tx.execute(sql`
      insert into contact_status_changes (contact_request_id, from_status, to_status, author_email, created_at)
      select c.id, 'pending', c.status, 'admin@example.fr', c.created_at + interval '2 days'
      from contact_requests c
      where c.status <> 'pending' and c.id % 4 = 0`);
    // What changeContactStatus and addContactNote keep: the first answer.
    await tx.execute(sql`
      update contact_requests r set first_answered_at = least(
        (select min(s.created_at) from contact_status_changes s where s.contact_request_id = r.id),
        (select min(n.created_at) from contact_notes n where n.contact_request_id = r.id))
      where r.id % 10 = 0 or (r.status <> 'pending' and r.id % 4 = 0)`);
  });
  await db.execute(sql`vacuum analyze`);
  type Summary = Record<"total" | "spam" | "notes" | "changes" | "wrong_counts", number>;
  const result = await db.execute<Summary>(sql`
      select
        (select count(*)::int from contact_requests) as total,
        (select count(*)::int from contact_requests where suspected_spam) as spam,
        (select count(*)::int from contact_notes) as notes,
        (select count(*)::int from contact_status_changes) as changes,
        (select count(*)::int from (
          select contact_request_count_key(suspected_spam, status) as key, count(*)::int as n
          from contact_requests group by 1
          except select key, count from contact_request_counts) as d) as wrong_counts`);
  const [summary] = result.rows;
  if (summary.wrong_counts !== 0) throw new Error("contact_request_counts is not exact");
  return summary;
}

/**
 * The ids the pages need: offers, a request with notes and history, a person's e-mail, quotes. Not
 * the oldest requests: they are past RETENTION_MONTHS, and the server's purge may erase them first.
 */
export async function pageIds(db: Database) {
  const result = await db.execute<PageIds>(sql`
      select
        (select id from offers order by id offset 4999 limit 1) as "offerId",
        (select c.id from contact_requests c
          where exists (select 1 from contact_notes n where n.contact_request_id = c.id)
            and exists (select 1 from contact_status_changes s where s.contact_request_id = c.id)
          order by c.id offset 500 limit 1) as "contactId",
        (select email from contact_requests order by id offset 4241 limit 1) as email,
        (select slug from offers where is_active
          order by options is null, id limit 1) as "offerSlug",
        (select id from contact_requests where offer_id is not null
          order by id desc limit 1) as "quoteContactId"`);
  return result.rows[0];
}

export type PageIds = {
  offerId: number;
  contactId: number;
  email: string;
  /** An active offer (with options when one has them) and a request about an offer: quotes. */
  offerSlug: string;
  quoteContactId: number;
};
