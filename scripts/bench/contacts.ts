import { sql } from "drizzle-orm";
import type { Database } from "../../app/server/db.server";

export const BENCH_CONTACTS = 100_000;

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
  const result = (await db.execute(sql`
      select
        (select count(*)::int from contact_requests) as total,
        (select count(*)::int from contact_requests where suspected_spam) as spam,
        (select count(*)::int from contact_notes) as notes,
        (select count(*)::int from contact_status_changes) as changes,
        (select count(*)::int from (
          select contact_request_count_key(suspected_spam, status) as key, count(*)::int as n
          from contact_requests group by 1
          except select key, count from contact_request_counts) as d) as wrong_counts`)) as unknown as {
    rows: { total: number; spam: number; notes: number; changes: number; wrong_counts: number }[];
  };
  const rows = result.rows;
  const [summary] = rows;
  if (summary.wrong_counts !== 0) throw new Error("contact_request_counts is not exact");
  return summary;
}
