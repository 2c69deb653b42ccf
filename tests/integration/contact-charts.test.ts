import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contactCharts } from "../../app/features/desk/contact-charts.server";
import {
  addContactNote,
  changeContactStatus,
} from "../../app/features/desk/contact-changes.server";
import { contactRequests } from "../../app/platform/schema.server";

import { useAdminSuite } from "../support/admin-suite";
import { NO_STATUS_COUNTS } from "../support/contacts";
import { testDatabaseKind } from "../support/database";

// The dashboard's charts (issue 22) from known rows: weeks by status, top offers, median delay.
const { database, createAdmin } = useAdminSuite();

describe(`dashboard charts (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    // This week: 3 requests (one answered 2 minutes after it came by a status change, one after
    // 4 minutes by a note, then again later: only the first answer counts), one spam; 20 weeks
    // ago: one, out of the charts.
    await database.db.execute(sql`
      insert into contact_requests (name, email, message, status, suspected_spam, offer_title, offer_reference, created_at)
      values ('A', 'a@example.fr', 'm', 'pending', false, 'Serveur A', 'SA', now() - interval '2 minutes'),
             ('B', 'b@example.fr', 'm', 'pending', false, 'Serveur A', 'SA', now() - interval '4 minutes'),
             ('C', 'c@example.fr', 'm', 'pending', false, 'Serveur B', 'SB', now() - interval '3 minutes'),
             ('S', 's@example.fr', 'm', 'pending', true, 'Serveur B', 'SB', now() - interval '2 minutes'),
             ('O', 'o@example.fr', 'm', 'completed', false, 'Serveur C', 'SC', now() - interval '20 weeks')`);
    const admin = await createAdmin();
    const idOf = async (name: string) =>
      (
        await database.db
          .select({ id: contactRequests.id })
          .from(contactRequests)
          .where(eq(contactRequests.name, name))
      )[0].id;
    // The answers as the desk writes them: first_answered_at is kept by these two functions.
    await changeContactStatus(await idOf("A"), "in_progress", admin, database.db);
    await addContactNote(await idOf("B"), "note", admin, database.db);
    await changeContactStatus(await idOf("B"), "completed", admin, database.db);
  });

  it("counts 12 weeks by status, the top offers and the median first answer", async () => {
    const charts = await contactCharts();
    expect(charts.weekly).toHaveLength(12);
    expect(charts.weekly.at(-1)?.counts).toEqual({
      ...NO_STATUS_COUNTS,
      pending: 1,
      in_progress: 1,
      completed: 1,
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
    // Median of about 2 and 4 minutes, in hours (the seconds the test takes aside).
    expect(charts.firstAnswer.at(-1)?.medianHours).toBeGreaterThan(3 / 60 - 0.001);
    expect(charts.firstAnswer.at(-1)?.medianHours).toBeLessThan(3 / 60 + 0.01);
    expect(charts.firstAnswer[0]).toEqual({
      week: charts.weekly[0].week,
      medianHours: null,
      answered: 0,
    });
  });
});
