import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adminContacts from "../../app/routes/admin-contacts";
import { createContactRequest } from "../../app/server/contacts.server";
import type { Database } from "../../app/server/db.server";
import { contactRequests, offers } from "../../app/server/schema.server";
import { openTestDatabase, testDatabaseKind } from "../support/database";
import {
  call,
  createAdmin,
  makeRequest,
  sessionCookieFor,
  snapshot,
  truncateAll,
} from "../support/admin";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
let cookie: string;
let offerId: number;

type PageData = Awaited<ReturnType<typeof adminContacts.loader>>;

async function page(path: string): Promise<PageData> {
  const outcome = await call(adminContacts.loader, makeRequest(path, { cookie }));
  expect(outcome.status).toBe(200);
  return outcome.data as PageData;
}

async function request(name: string, offer: number | null, minutesAgo: number) {
  const { id } = await createContactRequest({
    name,
    email: `${name.toLowerCase()}@example.fr`,
    phone: name === "Alice" ? "06 12 34 56 78" : null,
    message: `Bonjour,\nje suis ${name}.`,
    offer,
  });
  const at = new Date(Date.now() - minutesAgo * 60_000);
  await db
    .update(contactRequests)
    .set({ createdAt: at, updatedAt: at })
    .where(eq(contactRequests.id, id));
  return id;
}

describe(`admin contact requests (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    await truncateAll(db);
    cookie = await sessionCookieFor((await createAdmin(db)).id, db);
    [{ id: offerId }] = await db
      .insert(offers)
      .values({
        slug: "epyc",
        title: "EPYC 64",
        reference: "DED-64",
        cpu: "c",
        ram: "r",
        storage: "s",
        price: "10.00",
      })
      .returning();
  });

  it("lists requests newest first with the offer as title (reference), message kept as written", async () => {
    await request("Alice", offerId, 30);
    await request("Bruno", null, 10);
    await request("Chloé", 999_999, 20);
    const { requests, status } = await page("/admin/contacts");
    expect(status).toBeNull();
    expect(requests.map((r) => r.name)).toEqual(["Bruno", "Chloé", "Alice"]);
    const alice = requests[2];
    expect(alice).toMatchObject({
      email: "alice@example.fr",
      phone: "06 12 34 56 78",
      status: "pending",
      message: "Bonjour,\nje suis Alice.",
      offer: { title: "EPYC 64", reference: "DED-64", deleted: false },
    });
    expect(alice.createdAt).toBeInstanceOf(Date);
    expect(requests[0].offer).toBeNull();
    expect(requests[1].offer).toBeNull(); // an unknown offer id is stored as no offer
  });

  it("keeps the offer readable once it is deleted", async () => {
    await request("Alice", offerId, 5);
    await db.delete(offers).where(eq(offers.id, offerId));
    const [alice] = (await page("/admin/contacts")).requests;
    expect(alice.offerId).toBeNull();
    expect(alice.offer).toEqual({ title: "EPYC 64", reference: "DED-64", deleted: true });
  });

  it("filters by status from the URL, ignoring unknown values", async () => {
    const a = await request("Alice", null, 3);
    await request("Bruno", null, 2);
    await db
      .update(contactRequests)
      .set({ status: "in_progress" })
      .where(eq(contactRequests.id, a));
    expect((await page("/admin/contacts?status=in_progress")).requests.map((r) => r.name)).toEqual([
      "Alice",
    ]);
    expect((await page("/admin/contacts?status=pending")).requests.map((r) => r.name)).toEqual([
      "Bruno",
    ]);
    expect((await page("/admin/contacts?status=cancelled")).requests).toEqual([]);
    const unknown = await page("/admin/contacts?status=%27;drop");
    expect(unknown.status).toBeNull();
    expect(unknown.requests).toHaveLength(2);
  });

  it("changes a status from any to any, sets updated_at, keeps the filter and says so", async () => {
    const id = await request("Alice", null, 60);
    const [before] = await db.select().from(contactRequests);
    for (const status of ["completed", "pending", "cancelled", "in_progress"]) {
      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", {
          cookie,
          form: { id: String(id), status, filter: "pending" },
        }),
      );
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/admin/contacts?status=pending");
      expect(outcome.headers.get("set-cookie")).toContain("flash=statusUpdated");
      const [row] = await db.select().from(contactRequests);
      expect(row.status).toBe(status);
    }
    const [after] = await db.select().from(contactRequests);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(after.createdAt).toEqual(before.createdAt);
  });

  it("refuses a bad status or id with 4xx and the spec's message, changing nothing", async () => {
    const id = await request("Alice", null, 1);
    const before = await snapshot(db);
    for (const [form, status] of [
      [{ id: String(id), status: "archived" }, 400],
      [{ id: "abc", status: "completed" }, 400],
      [{ id: String(id) }, 400],
      [{}, 400],
      [{ id: "424242", status: "completed" }, 404],
    ] as const) {
      const outcome = await call(
        adminContacts.action,
        makeRequest("/admin/contacts", { cookie, form: form as Record<string, string> }),
      );
      expect(outcome.status, JSON.stringify(form)).toBe(status);
      expect(outcome.data).toMatchObject({ error: "Erreur lors de la mise à jour du statut" });
    }
    expect(await snapshot(db)).toEqual(before);
  });
});
