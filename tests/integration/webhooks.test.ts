import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { applyContactChange } from "../../app/features/desk/contact-changes.server";
import { webhookDeliveries, webhookEndpoints } from "../../app/platform/schema.server";
import {
  signedHeaders,
  startWebhookWorker,
  UNREADABLE_SECRET,
} from "../../app/features/webhooks/webhook-delivery.server";
import {
  claimDueDeliveries,
  createWebhookEndpoint,
  markDeliveryAttemptFailed,
  resendDelivery,
  sealStoredWebhookSecrets,
} from "../../app/features/webhooks/webhooks.server";

import { useAdminSuite } from "../support/admin-suite";
import { visitor } from "../support/contacts";
import { testDatabaseKind } from "../support/database";

// The webhook queue in the database (issue 22): events queued with the change that causes them,
// claimed once, given up after 24 hours, sent again on demand. Delivery over HTTP: system tests.
// Signing secrets are encrypted at rest with TOTP_ENCRYPTION_KEY (issue 28), set before the
// server's configuration is read; WEBHOOK_ALLOW_PRIVATE is off.
vi.hoisted(() => {
  process.env.TOTP_ENCRYPTION_KEY = Buffer.from(
    Array.from({ length: 32 }, (_, i) => 255 - i * 5),
  ).toString("base64");
  process.env.WEBHOOK_ALLOW_PRIVATE = "false";
});

const { database, signedInAdmin } = useAdminSuite();
const SECRET = `whsec_${Buffer.from("un secret de test de 32 octets!!").toString("base64")}`;
const context = { requestId: "test" };

describe(`webhook queue (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    await database.db.insert(webhookEndpoints).values([
      {
        url: "https://crm.example.com/a",
        events: ["request.created", "request.updated"],
        secret: SECRET,
      },
      { url: "https://crm.example.com/b", events: ["request.updated"], secret: SECRET },
    ]);
  });

  it("queues request.created for each subscribed endpoint, none for spam", async () => {
    const { id } = await createContactRequest(visitor(1));
    await createContactRequest(visitor(2), undefined, { suspectedSpam: true });
    const rows = await database.db.select().from(webhookDeliveries);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      eventType: "request.created",
      contactRequestId: id,
      status: "pending",
    });
    const body = JSON.parse(rows[0].payload) as { type: string; data: Record<string, unknown> };
    expect(body.type).toBe("request.created");
    expect(body.data).toMatchObject({
      id,
      name: "Visiteur 1",
      email: "visiteur1@example.fr",
      status: "pending",
      owner: null,
    });
    expect(body.data.reference).toMatch(/^DEM-\d{4}-\d{5}$/);
  });

  it("queues request.updated with what changed for status and note", async () => {
    const { admin } = await signedInAdmin();
    const { id } = await createContactRequest(visitor(3));
    await database.db.delete(webhookDeliveries);
    await applyContactChange(id, { intent: "status", status: "in_progress" }, admin, context);
    await applyContactChange(id, { intent: "note", body: "Rappeler lundi" }, admin, context);
    // The same status again changes nothing and announces nothing.
    await applyContactChange(id, { intent: "status", status: "in_progress" }, admin, context);
    const rows = await database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
    expect(
      rows.map((r) => [
        r.eventType,
        (JSON.parse(r.payload) as { data: { changes: string[] } }).data.changes,
      ]),
    ).toEqual([
      ["request.updated", ["status"]],
      ["request.updated", ["status"]],
      ["request.updated", ["note"]],
      ["request.updated", ["note"]],
    ]);
  });

  it("claims a delivery once, gives up after 24 hours, and resends on demand", async () => {
    await createContactRequest(visitor(4));
    const [claimed] = await claimDueDeliveries(10, 60);
    expect(claimed).toMatchObject({
      attempts: 1,
      url: "https://crm.example.com/a",
      secret: SECRET,
    });
    expect(await claimDueDeliveries(10, 60)).toEqual([]);

    expect(
      await markDeliveryAttemptFailed(claimed.id, { statusCode: 500, error: "HTTP 500" }, 0),
    ).toBe("retry");
    await database.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(webhookDeliveries.id, claimed.id));
    const [again] = await claimDueDeliveries(10, 60);
    expect(again.attempts).toBe(2);
    expect(
      await markDeliveryAttemptFailed(again.id, { statusCode: null, error: "refusé" }, 10),
    ).toBe("failed");
    expect(await claimDueDeliveries(10, 60)).toEqual([]);

    expect(await resendDelivery(again.id, context)).toEqual({ kind: "queued" });
    const [resent] = await claimDueDeliveries(10, 60);
    expect(resent).toMatchObject({ id: again.id, attempts: 1 });
  });

  it("signs each attempt so that a Standard Webhooks library verifies it", () => {
    const payload = JSON.stringify({ type: "request.created", data: { id: 1 } });
    const headers = signedHeaders({ id: 7, secret: SECRET, payload }, new Date());
    expect(headers["webhook-id"]).toBe("msg_7");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(SECRET).verify(`${payload} `, headers)).toThrow();
  });

  it("stores signing secrets encrypted, each bound to its endpoint, and encrypts clear ones at start", async () => {
    const created = await createWebhookEndpoint(
      { url: new URL("https://8.8.8.8/hooks"), events: ["request.created"] },
      context,
    );
    if (created.kind !== "created") throw new Error(created.kind);
    const stored = async () =>
      (await database.db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id)).map(
        (row) => row.secret,
      );
    const [, , sealed] = await stored();
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain(created.secret.slice(6));

    // The two endpoints of beforeEach were stored in clear (before the key): encrypted at start,
    // and still sign with the same secret.
    expect(await sealStoredWebhookSecrets(database.db)).toBe(2);
    expect((await stored()).every((secret) => secret.startsWith("v1:"))).toBe(true);
    expect(await sealStoredWebhookSecrets(database.db)).toBe(0);
    await createContactRequest(visitor(5));
    const claimed = await claimDueDeliveries(10, 60);
    const byEndpoint = claimed.sort((a, b) => a.endpointId - b.endpointId);
    expect(byEndpoint.map((d) => d.secret)).toEqual([SECRET, created.secret]);

    // A sealed secret copied onto another endpoint does not open there.
    await database.db
      .update(webhookEndpoints)
      .set({ secret: sealed })
      .where(eq(webhookEndpoints.url, "https://crm.example.com/a"));
    await database.db.update(webhookDeliveries).set({ lockedUntil: null });
    const again = await claimDueDeliveries(10, 60);
    expect(again.find((d) => d.url === "https://crm.example.com/a")?.secret).toBeNull();
  });

  it("refuses at delivery an IP-literal URL of a private address, however written, and an unreadable secret", async () => {
    await database.db.delete(webhookEndpoints);
    const literals = [
      "https://127.0.0.1:9/hooks",
      "https://[::ffff:7f00:1]:9/hooks",
      "https://[64:ff9b::a9fe:a9fe]/latest/meta-data",
      "http://127.0.0.1:9/hooks",
    ];
    await database.db
      .insert(webhookEndpoints)
      .values([
        ...literals.map((url) => ({ url, events: ["request.created"], secret: SECRET })),
        { url: "https://8.8.8.8:9/hooks", events: ["request.created"], secret: "v1:AAAA" },
      ]);
    await createContactRequest(visitor(6));
    const worker = startWebhookWorker(database, { pollMs: 200 });
    try {
      const attempted = async () =>
        database.db
          .select({ url: webhookEndpoints.url, error: webhookDeliveries.lastError })
          .from(webhookDeliveries)
          .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
          .where(sql`${webhookDeliveries.lastAttemptAt} is not null`)
          .orderBy(webhookEndpoints.id);
      await vi.waitFor(async () => expect(await attempted()).toHaveLength(5), {
        timeout: 20_000,
        interval: 100,
      });
      expect(await attempted()).toEqual([
        { url: literals[0], error: "Adresse privée ou locale refusée pour 127.0.0.1" },
        { url: literals[1], error: "Adresse privée ou locale refusée pour ::ffff:7f00:1" },
        { url: literals[2], error: "Adresse privée ou locale refusée pour 64:ff9b::a9fe:a9fe" },
        { url: literals[3], error: "Adresse refusée en http:// pour 127.0.0.1 : https:// requis" },
        { url: "https://8.8.8.8:9/hooks", error: UNREADABLE_SECRET },
      ]);
    } finally {
      await worker.stop(1_000);
    }
  });
});
