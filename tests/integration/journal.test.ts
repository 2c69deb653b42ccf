import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as auth from "../../app/routes/admin/sign-in";
import * as logout from "../../app/routes/admin/logout";
import * as contactsPage from "../../app/routes/admin/contacts";
import * as journalPage from "../../app/routes/admin/journal";
import * as offersPage from "../../app/routes/admin/offers";
import * as personalData from "../../app/routes/admin/personal-data";
import * as journalExport from "../../app/routes/resources/admin-journal-export[.]csv";
import { purgeJournal } from "../../app/platform/journal.server";
import { auditJournal } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { insertRequest } from "../support/contacts";
import { buildOffer, insertOffers } from "../support/offers";

// The journal (issue 20): what is recorded, the page (50 per page, filters), its CSV, and that the
// database itself keeps it append-only but for the retention.

const { database, createAdmin, sessionCookieFor } = useAdminSuite();

async function entries() {
  return database.db.select().from(auditJournal).orderBy(auditJournal.id);
}

describe(`journal (${testDatabaseKind})`, () => {
  let cookie: string;
  beforeEach(async () => {
    cookie = await sessionCookieFor((await createAdmin()).id);
  });

  it("records sign-ins, failures, sign-outs and admin actions with account, target, address and request", async () => {
    const context = { ...testContext, requestId: "req-1", clientIp: "198.51.100.9" };
    await call(
      auth.action,
      makeRequest("/auth", { form: { email: ADMIN.email, password: "faux" } }),
      context,
    );
    await call(
      auth.action,
      makeRequest("/auth", { form: { email: "inconnu@example.fr", password: "faux" } }),
      context,
    );
    const signedIn = await call(
      auth.action,
      makeRequest("/auth", { form: { email: ADMIN.email, password: ADMIN.password } }),
      context,
    );
    const session = /(admin_session=[^;]+)/.exec(signedIn.headers.get("set-cookie")!)![1];
    const [offer] = await insertOffers(database.db, [buildOffer(1)]);
    await call(
      offersPage.action,
      makeRequest("/admin/offers", {
        cookie,
        form: { intent: "toggle", id: String(offer.id), active: "0" },
      }),
      context,
    );
    const contactId = await insertRequest(database.db, {
      name: "Jeanne",
      email: "jeanne@example.fr",
    });
    await call(
      contactsPage.action,
      makeRequest("/admin/contacts", {
        cookie,
        form: { id: String(contactId), status: "completed" },
      }),
      context,
    );
    await call(
      personalData.loader,
      makeRequest("/admin/personal-data?email=jeanne@example.fr", { cookie }),
      context,
    );
    await call(logout.action, makeRequest("/admin/logout", { cookie: session, form: {} }), context);

    const rows = await entries();
    expect(rows.map((r) => [r.action, r.actorEmail, r.target])).toEqual([
      ["sign-in-failed", ADMIN.email, null],
      ["sign-in-failed", null, null],
      ["sign-in", ADMIN.email, null],
      ["offer-hidden", ADMIN.email, `offre ${offer.id}`],
      ["status-changed", ADMIN.email, `demande ${contactId} : completed`],
      ["personal-data-viewed", ADMIN.email, expect.stringMatching(/^personne [0-9a-f]{16}$/)],
      ["sign-out", ADMIN.email, null],
    ]);
    for (const row of rows) {
      expect(row.ip).toBe("198.51.100.9");
      expect(row.requestId).toBe("req-1");
      expect(row.at).toBeInstanceOf(Date);
    }
    // The person looked up is never named by their address.
    expect(JSON.stringify(rows)).not.toContain("jeanne@");
  });

  it("shows 50 entries per page, filtered by account, action and dates, and exports them as CSV", async () => {
    await database.db.insert(auditJournal).values([
      ...Array.from({ length: 55 }, (_, i) => ({
        actorEmail: ADMIN.email,
        action: "offer-updated",
        target: `offre ${i}`,
        at: new Date(Date.UTC(2026, 5, 10, 12, i)),
      })),
      { actorEmail: "autre@example.fr", action: "sign-in", at: new Date(Date.UTC(2026, 4, 1, 9)) },
    ]);
    const page = async (query: string) =>
      (await call(journalPage.loader, makeRequest(`/admin/journal${query}`, { cookie })))
        .data as Awaited<ReturnType<typeof journalPage.loader>>;
    const first = await page("");
    expect(first.total).toBe(56);
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0].target).toBe("offre 54");
    expect(first.pageCount).toBe(2);
    expect((await page("?page=2")).rows).toHaveLength(6);
    expect((await page("?account=autre@example.fr")).total).toBe(1);
    expect((await page("?action=sign-in")).total).toBe(1);
    expect((await page("?from=2026-06-01&to=2026-06-30")).total).toBe(55);
    expect((await page("?to=2026-05-31")).total).toBe(1);
    expect(first.accounts).toEqual([ADMIN.email, "autre@example.fr"]);

    const csv = (await journalExport.loader({
      request: makeRequest("/admin/journal/export.csv?action=sign-in", { cookie }),
      params: {},
      context: testContext,
    } as never)) as Response;
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await csv.text();
    expect(text.trim().split("\r\n")).toHaveLength(2);
    expect(text).toContain("autre@example.fr;Connexion");
    // The export itself is journaled.
    const [last] = (await entries()).slice(-1);
    expect(last.action).toBe("journal-exported");
  });

  it("refuses to update or delete an entry, but lets the retention delete old ones", async () => {
    await database.db.insert(auditJournal).values([
      { actorEmail: ADMIN.email, action: "sign-in", at: sql`now() - interval '13 months'` },
      { actorEmail: ADMIN.email, action: "sign-in", at: sql`now() - interval '11 months'` },
    ]);
    await expect(
      database.db.update(auditJournal).set({ actorEmail: "faux@example.fr" }),
    ).rejects.toThrow();
    await expect(database.db.delete(auditJournal)).rejects.toThrow();
    const refused = await database.db
      .execute(sql`delete from audit_journal where action = 'sign-in'`)
      .then(
        () => undefined,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(refused).toMatch(/append-only/);
    expect(await entries()).toHaveLength(2);
    // Asked for 0 months, the retention still keeps AUDIT_RETENTION_MONTHS (12), the floor the
    // migrations set on purge_audit_journal().
    expect(await purgeJournal(0, database.db)).toBe(1);
    const left = await entries();
    expect(left).toHaveLength(1);
    expect(left[0].at.getTime()).toBeGreaterThan(Date.now() - 12 * 31 * 86_400_000);
    // The retention's permission does not outlive its transaction.
    await expect(
      database.db.delete(auditJournal).where(eq(auditJournal.id, left[0].id)),
    ).rejects.toThrow();
  });
});
