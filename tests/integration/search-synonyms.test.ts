import { notInArray } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as synonymsPage from "../../app/routes/admin/search-synonyms";
import { listActiveOffers } from "../../app/features/offers/offer-listing.server";
import {
  addSynonymGroup,
  listSynonymGroups,
} from "../../app/features/offers/search-synonyms.server";
import { auditJournal, searchSynonyms } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { buildOffer, insertOffers } from "../support/offers";

const { database, signedInAdmin } = useAdminSuite();
let cookie: string;

const titles = async (searchTerm: string) =>
  (await listActiveOffers({ searchTerm }, 1, 50, database.db)).offers.map((o) => o.title);
const post = (form: Record<string, string>) =>
  call(synonymsPage.action, makeRequest("/admin/recherche", { cookie, form }));

describe(`the search's synonyms (${testDatabaseKind})`, () => {
  // The groups the migration ships stay; each test's own go (the suite empties other tables).
  let shipped: number[] = [];
  beforeAll(async () => {
    shipped = (await listSynonymGroups(database.db)).map((group) => group.id);
  });

  beforeEach(async () => {
    await database.db.delete(searchSynonyms).where(notInArray(searchSynonyms.id, shipped));
    ({ cookie } = await signedInAdmin());
    await insertOffers(database.db, [
      buildOffer(1, { title: "Serveur Lugdunum", cpu: "AMD EPYC 7543" }),
      buildOffer(2, { title: "Serveur Lutèce" }),
    ]);
  });

  it("ships the groups buyers need: epic finds EPYC, 128 gb finds 128 Go", async () => {
    const shipped = (await listSynonymGroups(database.db)).map((g) => g.phrases.join(" = "));
    expect(shipped).toContain("epic = EPYC");
    expect(shipped).toContain("go = Go = GB = gigaoctet");
    expect(await titles("epic")).toEqual(["Serveur Lugdunum"]);
    expect(await titles("64 gb")).toEqual(["Serveur Lutèce", "Serveur Lugdunum"]);
  });

  it("adds a group from the admin page, journaled, and the search follows at once", async () => {
    expect(await titles("lyon")).toEqual([]);
    const added = await post({ intent: "add", phrases: " Lyon =  Lugdunum " });
    expect(added.status).toBe(302);
    expect(await titles("lyon")).toEqual(["Serveur Lugdunum"]);
    const journal = await database.db.select().from(auditJournal);
    expect(
      journal.some((e) => e.action === "synonyms-added" && e.target === "Lyon = Lugdunum"),
    ).toBe(true);
  });

  it("refuses one phrase, a known group, junk and a missing group with a French 4xx", async () => {
    const one = await post({ intent: "add", phrases: "lyon" });
    expect(one.status).toBe(400);
    expect(JSON.stringify(one.data)).toContain("Indiquez au moins deux expressions différentes");
    const same = await post({ intent: "add", phrases: "Lyon = lyon" });
    expect(same.status).toBe(400);
    await addSynonymGroup(["lyon", "lugdunum"], database.db);
    const known = await post({ intent: "add", phrases: "LUGDUNUM = Lyon" });
    expect(known.status).toBe(409);
    expect(JSON.stringify(known.data)).toContain("Ce groupe de synonymes existe déjà.");
    const control = await post({ intent: "add", phrases: "a\u0000b = c" });
    expect(control.status).toBe(400);
    const long = await post({ intent: "add", phrases: `${"x".repeat(61)} = y` });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.data)).toContain(
      "Une expression ne doit pas dépasser 60 caractères.",
    );
    const missing = await post({ intent: "remove", id: "999999" });
    expect(missing.status).toBe(404);
    const junk = await post({ intent: "remove", id: "abc" });
    expect(junk.status).toBe(400);
  });

  it("removes a group after the confirmation's post", async () => {
    const added = await addSynonymGroup(["lyon", "lugdunum"], database.db);
    if (added.kind !== "added") throw new Error(added.kind);
    const page = await call(
      synonymsPage.loader,
      makeRequest(`/admin/recherche?remove=${added.id}`, { cookie }),
    );
    expect(JSON.stringify(page.data)).toContain("lugdunum");
    const removed = await post({ intent: "remove", id: String(added.id) });
    expect(removed.status).toBe(302);
    expect(await titles("lyon")).toEqual([]);
  });
});
