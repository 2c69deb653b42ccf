import { asc } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { ACK_SITE_KEY } from "../../app/features/desk/contact-acknowledgement.server";
import { resetRateLimit } from "../../app/platform/rate-limit.server";
import { mailOutbox, rateLimits } from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { useTestDatabase } from "../support/use-test-database";

// The visitor's acknowledgement queued beside the team's notification (the outbox's sending:
// mail-outbox.test.ts).
const database = useTestDatabase();

const visitor = (n: number, offer: number | null = null) => ({
  name: `Visiteur ${n}`,
  email: `visiteur${n}@example.com`,
  phone: null,
  message: `Bonjour ${n}`,
  offer,
});

const outbox = () => database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));

afterEach(async () => {
  await database.db.delete(mailOutbox);
});

describe(`visitor acknowledgements in the outbox (${testDatabaseKind})`, () => {
  const queued = async (kind: "contact_acknowledgement" | "contact_notification") =>
    (await outbox()).filter((m) => m.kind === kind).map((m) => m.contactRequestId);
  const send = async (n: number, email: string, maxPerHour: number) =>
    (
      await createContactRequest({ ...visitor(n), email }, undefined, {
        acknowledge: { maxPerHour },
      })
    ).id;

  it("queues one per mailbox in 10 minutes: case and +tag variants are one mailbox", async () => {
    const ids = [];
    for (const email of [
      "ack+1@example.com",
      "Ack+2@example.com",
      "ACK@EXAMPLE.COM",
      "ack+3@example.com",
    ]) {
      ids.push(await send(70, email, 60));
    }
    expect(await queued("contact_acknowledgement")).toEqual([ids[0]]);
    expect(await queued("contact_notification")).toEqual(ids);
    // The mailbox's counter is a hash: no address is kept where erasure does not look.
    const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map(
      (r) => r.key,
    );
    expect(keys.filter((k) => k.includes("example.com"))).toEqual([]);
  });

  it("past the hourly cap stores and notifies, without acknowledging; one mailbox never uses it up", async () => {
    await resetRateLimit(ACK_SITE_KEY, database.db);
    const repeated = [];
    for (let i = 0; i < 3; i++) repeated.push(await send(71, "repete@example.com", 2));
    const second = await send(72, "second@example.com", 2);
    const past = await send(73, "troisieme@example.com", 2);
    expect(await queued("contact_acknowledgement")).toEqual([repeated[0], second]);
    expect(await queued("contact_notification")).toEqual([...repeated, second, past]);
  });
});
