import type { Role } from "../../app/features/accounts/roles";
import type { AdminUser } from "../../app/features/accounts/users.server";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as contactRequestPage from "../../app/routes/admin/contact-request";
import * as contactsPage from "../../app/routes/admin/contacts";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { applyContactChange } from "../../app/features/desk/contact-changes.server";
import { findContactRequest } from "../../app/features/desk/contact-request.server";
import { listContactRequests } from "../../app/features/desk/contact-list.server";
import { users, webhookDeliveries, webhookEndpoints } from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { visitor } from "../support/contacts";
import { testDatabaseKind } from "../support/database";

// Owners of contact requests (issue 22): 'Attribuer à', its history and webhook, the list's owner
// filters, and the round-robin assignment of new requests.
const { database, createAdmin, signedInAdmin } = useAdminSuite();
const context = { requestId: "test" };

async function account(email: string, role: Role): Promise<AdminUser> {
  const user = await createAdmin({ email, password: "un mot de passe solide" });
  await database.db.update(users).set({ role }).where(eq(users.id, user.id));
  return { ...user, role };
}

describe(`request owners (${testDatabaseKind})`, () => {
  let admin: AdminUser;
  let cookie: string;
  beforeEach(async () => {
    ({ admin, cookie } = await signedInAdmin());
  });

  it("assigns to an Administrateur or Commercial, records it, announces it", async () => {
    await database.db.insert(webhookEndpoints).values({
      url: "https://crm.example.com/",
      events: ["request.updated"],
      secret: "whsec_c2VjcmV0",
    });
    const sales = await account("commercial@example.fr", "sales");
    const catalogue = await account("catalogue@example.fr", "catalogue");
    const { id } = await createContactRequest(visitor(1));

    expect(
      await applyContactChange(id, { intent: "assign", ownerId: sales.id }, admin, context),
    ).toEqual({ kind: "done" });
    expect(
      await applyContactChange(id, { intent: "assign", ownerId: catalogue.id }, admin, context),
    ).toEqual({ kind: "not-assignable" });
    expect(
      await applyContactChange(id, { intent: "assign", ownerId: null }, admin, context),
    ).toEqual({ kind: "done" });
    // The same owner again records nothing.
    expect(
      await applyContactChange(id, { intent: "assign", ownerId: null }, admin, context),
    ).toEqual({ kind: "done" });

    const detail = await findContactRequest(id);
    expect(detail?.ownerId).toBeNull();
    expect(
      detail?.ownerHistory.map((c) => [c.fromOwnerEmail, c.toOwnerEmail, c.authorEmail]),
    ).toEqual([
      ["commercial@example.fr", null, admin.email],
      [null, "commercial@example.fr", admin.email],
    ]);
    const events = await database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
    expect(
      events.map(
        (e) =>
          (JSON.parse(e.payload) as { data: { owner: string | null; changes: string[] } }).data,
      ),
    ).toMatchObject([
      { owner: "commercial@example.fr", changes: ["owner"] },
      { owner: null, changes: ["owner"] },
    ]);
  });

  it("posts 'Attribuer à' from the request's page, refusing a bad owner with a 400", async () => {
    const sales = await account("commercial@example.fr", "sales");
    const { id } = await createContactRequest(visitor(2));
    const path = `/admin/contacts/${id}`;
    const post = (owner: string) =>
      call(
        contactRequestPage.action,
        makeRequest(path, { cookie, form: { intent: "assign", owner } }),
        undefined,
        { id: String(id) },
      );
    const done = await post(String(sales.id));
    expect(done.status).toBe(302);
    for (const owner of ["abc", "999999"]) {
      const refused = await post(owner);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.data)).toContain(
        "Choisissez un compte Administrateur ou Commercial",
      );
    }
    expect((await findContactRequest(id))?.ownerId).toBe(sales.id);
  });

  it("sorts by owner's e-mail, unassigned requests last (first when descending)", async () => {
    // Accounts created in the reverse of their e-mail order: the sort follows the e-mail, not the id.
    const zoe = await account("zoe@example.fr", "sales");
    const bruno = await account("Bruno@example.fr", "sales");
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push((await createContactRequest(visitor(n))).id);
    await applyContactChange(ids[0], { intent: "assign", ownerId: zoe.id }, admin, context);
    await applyContactChange(ids[1], { intent: "assign", ownerId: bruno.id }, admin, context);
    await applyContactChange(ids[3], { intent: "assign", ownerId: admin.id }, admin, context);
    const owners = async (sort: "owner" | "owner-desc") =>
      (await listContactRequests({ sort })).requests.map((r) => r.ownerEmail);
    expect(await owners("owner")).toEqual([
      admin.email,
      "bruno@example.fr",
      "zoe@example.fr",
      null,
    ]);
    expect(await owners("owner-desc")).toEqual([
      null,
      "zoe@example.fr",
      "bruno@example.fr",
      admin.email,
    ]);
  });

  it("filters the list on owner=me and owner=none", async () => {
    const sales = await account("commercial@example.fr", "sales");
    const ids = [];
    for (let n = 1; n <= 3; n++) ids.push((await createContactRequest(visitor(n))).id);
    await applyContactChange(ids[0], { intent: "assign", ownerId: admin.id }, admin, context);
    await applyContactChange(ids[1], { intent: "assign", ownerId: sales.id }, admin, context);
    const names = async (owner: "me" | "none") =>
      (await listContactRequests({ sort: "newest", owner, viewerId: admin.id })).requests.map(
        (r) => r.name,
      );
    expect(await names("me")).toEqual(["Visiteur 1"]);
    expect(await names("none")).toEqual(["Visiteur 3"]);
    expect(
      (await listContactRequests({ sort: "newest", owner: "me", viewerId: admin.id })).total,
    ).toBe(1);

    const res = await call(
      contactsPage.loader,
      makeRequest("/admin/contacts?owner=me", { cookie }),
    );
    expect((res.data as { requests: { name: string }[] }).requests.map((r) => r.name)).toEqual([
      "Visiteur 1",
    ]);
  });

  it("round robin: new requests go in turn to the Commercial accounts, skipping removed ones", async () => {
    const a = await account("a@example.fr", "sales");
    const b = await account("b@example.fr", "sales");
    const c = await account("c@example.fr", "sales");
    await account("catalogue@example.fr", "catalogue");
    const owners: (number | null)[] = [];
    const next = async (n: number) => {
      const { id } = await createContactRequest(visitor(n), undefined, { roundRobin: true });
      owners.push((await findContactRequest(id))!.ownerId);
    };
    for (let n = 1; n <= 4; n++) await next(n);
    expect(owners).toEqual([a.id, b.id, c.id, a.id]);
    // Account removal is another branch's (role management): the row goes.
    await database.db.delete(users).where(eq(users.id, b.id));
    await next(5);
    await next(6);
    expect(owners.slice(4)).toEqual([c.id, a.id]);
    // Spam is nobody's.
    const spam = await createContactRequest(visitor(7), undefined, {
      suspectedSpam: true,
      roundRobin: true,
    });
    expect((await findContactRequest(spam.id))?.ownerId).toBeNull();
    const [first] = (await findContactRequest(
      (await createContactRequest(visitor(8), undefined, { roundRobin: true })).id,
    ))!.ownerHistory;
    expect(first).toMatchObject({
      fromOwnerEmail: null,
      toOwnerEmail: "c@example.fr",
      authorEmail: null,
    });
  });
});
