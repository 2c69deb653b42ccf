import { describe, expect, it } from "vitest";
import {
  bumpCatalogueVersion,
  getCatalogueVersion,
} from "../../app/features/offers/catalogue.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase();

describe(`catalogue version (${testDatabaseKind})`, () => {
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
    await bumpCatalogueVersion();
    const before = Number((await getCatalogueVersion()).version);
    let inside: string | undefined;
    await expect(
      database.db.transaction(async (tx) => {
        await bumpCatalogueVersion(tx);
        inside = (await getCatalogueVersion(tx)).version;
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    // Bumped inside the transaction, and back to where it was once the transaction failed.
    expect(inside).toBe(String(before + 1));
    expect((await getCatalogueVersion()).version).toBe(String(before));
  });
});
