import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contactCharts } from "../../app/server/contact-charts.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

// The dashboard's charts (issue 22) from known rows: weeks by status, top offers, median delay.
const database = useTestDatabase({ truncate: true });

describe(`dashboard charts (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    // This week: 3 requests (one answered after 2 h by a status change, one after 4 h by a note),
    // one spam; 20 weeks ago: one, out of the charts.
    await database.db.execute(sql`
      insert into contact_requests (name, email, message, status, suspected_spam, offer_title, offer_reference, created_at)
      values ('A', 'a@example.fr', 'm', 'in_progress', false, 'Serveur A', 'SA', now() - interval '5 minutes'),
             ('B', 'b@example.fr', 'm', 'pending', false, 'Serveur A', 'SA', now() - interval '4 minutes'),
             ('C', 'c@example.fr', 'm', 'pending', false, 'Serveur B', 'SB', now() - interval '3 minutes'),
             ('S', 's@example.fr', 'm', 'pending', true, 'Serveur B', 'SB', now() - interval '2 minutes'),
             ('O', 'o@example.fr', 'm', 'completed', false, 'Serveur C', 'SC', now() - interval '20 weeks')`);
    await database.db.execute(sql`
      insert into contact_status_changes (contact_request_id, from_status, to_status, author_email, created_at)
      select id, 'pending', 'in_progress', 'x@example.fr', created_at + interval '2 hours' from contact_requests where name = 'A'`);
    await database.db.execute(sql`
      insert into contact_notes (contact_request_id, author_email, body, created_at)
      select id, 'x@example.fr', 'note', created_at + interval '4 hours' from contact_requests where name = 'B'`);
  });

  it("counts 12 weeks by status, the top offers and the median first answer", async () => {
    const charts = await contactCharts();
    expect(charts.weekly).toHaveLength(12);
    expect(charts.weekly.at(-1)?.counts).toEqual({
      pending: 2,
      in_progress: 1,
      completed: 0,
      cancelled: 0,
    });
    expect(
      charts.weekly.slice(0, -1).every((w) => Object.values(w.counts).every((n) => n === 0)),
    ).toBe(true);
    expect(charts.topOffers).toEqual([
      { title: "Serveur A", reference: "SA", count: 2 },
      { title: "Serveur B", reference: "SB", count: 1 },
    ]);
    expect(charts.firstAnswer).toHaveLength(12);
    expect(charts.firstAnswer.at(-1)).toMatchObject({ answered: 2 });
    expect(charts.firstAnswer.at(-1)?.medianHours).toBeCloseTo(3, 5);
    expect(charts.firstAnswer[0]).toEqual({
      week: charts.weekly[0].week,
      medianHours: null,
      answered: 0,
    });
  });
});
