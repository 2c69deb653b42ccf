import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpCatalogueVersion, getCatalogueVersion } from "../../app/server/catalogue.server";
import { openTestDatabase, testDatabaseKind } from "../support/database";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

describe(`catalogue version (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("starts at 0 and increases by one per bump, also under concurrency", async () => {
    expect((await getCatalogueVersion()).version).toBe("0");
    await bumpCatalogueVersion();
    expect((await getCatalogueVersion()).version).toBe("1");
    await Promise.all(Array.from({ length: 10 }, () => bumpCatalogueVersion()));
    const { version, updatedAt } = await getCatalogueVersion();
    expect(version).toBe("11");
    expect(updatedAt).toBeInstanceOf(Date);
  });

  it("rolls back with the transaction that bumped it", async () => {
    await database.db
      .transaction(async (tx) => {
        await bumpCatalogueVersion(tx as never);
        throw new Error("rollback");
      })
      .catch(() => {});
    expect((await getCatalogueVersion()).version).toBe("11");
  });
});
