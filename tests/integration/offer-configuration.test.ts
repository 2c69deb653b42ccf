import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { renderContactNotification } from "../../app/features/desk/contact-mail";
import * as contact from "../../app/routes/public/contact";
import * as offerPage from "../../app/routes/public/offer";
import { contactMailData, createContactRequest } from "../../app/features/desk/contacts.server";
import { contactRequestsCsv } from "../../app/features/desk/contact-export.server";
import { findPersonalData } from "../../app/features/privacy/personal-data.server";
import { personalDataDocument } from "../../app/features/privacy/personal-data-document.server";
import { contactRequests } from "../../app/platform/schema.server";
import { call, makeRequest, testContext } from "../support/admin";
import { testDatabaseKind } from "../support/database";
import { buildConfigurableOffer, buildOffer, insertOffers, OFFER_OPTIONS } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

const database = useTestDatabase({ truncate: true });
const normalize = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

let offerId: number;

describe(`configuration (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    [{ id: offerId }] = await insertOffers(database.db, [buildConfigurableOffer(1)]);
  });

  it("the offer page prices the configuration in its address", async () => {
    const outcome = await call(
      offerPage.loader,
      makeRequest("/offers/offre-1?o0=1&o1=4&x=1"),
      testContext,
      {
        slug: "offre-1",
      },
    );
    const loaded = outcome.data as Awaited<ReturnType<typeof offerPage.loader>> & {
      configured: { configuration: { monthly: number; setup: number }; query: string };
    };
    expect(loaded.configured.configuration).toMatchObject({
      monthly: 12900 + 4000 + 800,
      setup: 4900 + 2000,
    });
    expect(loaded.configured.query).toBe("o0=1&o1=4");
  });

  it("drops a configuration posted with another offer than the one it was chosen on", async () => {
    const [{ id: otherId }] = await insertOffers(database.db, [
      buildOffer(2, { price: "99.00", options: OFFER_OPTIONS }),
    ]);
    const page = await call(contact.loader, makeRequest(`/contact?offer=${offerId}`));
    const { token } = page.data as { token: string };
    const post = (offer: number, email: string, submission: string) =>
      call(
        contact.action,
        makeRequest("/contact", {
          form: {
            name: "Bruno Petit",
            email,
            phone: "",
            message: "Bonjour",
            offer: String(offer),
            configuration: "o0=1&o1=4",
            configurationOffer: String(offerId),
            website: "",
            submission,
          },
        }),
      );
    // The visitor switched to the other offer on the form: its options are not the ones chosen.
    expect((await post(otherId, "bruno@example.fr", token)).status).toBe(303);
    // Kept with the offer it was chosen on.
    const second = (await call(contact.loader, makeRequest("/contact"))).data as { token: string };
    expect((await post(offerId, "bruno2@example.fr", second.token)).status).toBe(303);
    const rows = await database.db
      .select({ email: contactRequests.email, configuration: contactRequests.configuration })
      .from(contactRequests);
    const byEmail = new Map(rows.map((r) => [r.email, r.configuration]));
    // The other offer as it comes (its defaults: 128 Go included, no extra address), not 256 Go + 4.
    expect(byEmail.get("bruno@example.fr")).toMatchObject({ monthly: 9900, setup: 0 });
    expect(byEmail.get("bruno2@example.fr")).toMatchObject({ monthly: 17700 });
  });

  it("the contact form shows the configuration and the request keeps its snapshot everywhere", async () => {
    const page = await call(
      contact.loader,
      makeRequest(`/contact?offer=${offerId}&configuration=${encodeURIComponent("o0=1&o1=4")}`),
    );
    const shown = page.data as { configuration: { query: string } | null; token: string };
    expect(shown.configuration?.query).toBe("o0=1&o1=4");

    const sent = await call(
      contact.action,
      makeRequest("/contact", {
        form: {
          name: "Alice Martin",
          email: "alice@example.fr",
          phone: "",
          message: "Bonjour",
          offer: String(offerId),
          configuration: "o0=1&o1=4",
          website: "",
          submission: shown.token,
        },
      }),
    );
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/^\/contact\/merci\?ref=DEM-/);
    const [row] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.email, "alice@example.fr"));
    expect(row.configuration).toMatchObject({
      monthly: 17700,
      setup: 6900,
      lines: [
        { group: "Mémoire", value: "256 Go", monthly: 4000, setup: 0 },
        { group: "IPv4 supplémentaires", value: "4", monthly: 800, setup: 2000 },
      ],
    });

    const mail = renderContactNotification(
      (await contactMailData(row.id, database.db))!,
      "https://x.fr",
      { vatRate: 20, display: "ht" },
    );
    expect(normalize(mail.text)).toContain("Mémoire : 256 Go (+40,00 € HT/mois)");
    expect(normalize(mail.text)).toContain("Total : 177,00 € HT/mois, mise en service 69,00 € HT");

    const csv = await new Response(
      contactRequestsCsv({ sort: "newest" } as never, database.db),
    ).text();
    expect(normalize(csv)).toContain(
      "IPv4 supplémentaires : 4 (+8,00 € HT/mois, +20,00 € HT de mise en service)",
    );

    const doc = personalDataDocument(
      "alice@example.fr",
      await findPersonalData("alice@example.fr", database.db),
      { name: "S", address: "A", email: "e@x.fr" },
    );
    expect(doc.contactRequests[0].configuration).toHaveLength(3);
  });

  it("a refused post shows the configuration again and posts it back", async () => {
    const page = await call(
      contact.loader,
      makeRequest(`/contact?offer=${offerId}&configuration=${encodeURIComponent("o0=1&o1=4")}`),
    );
    const { token } = page.data as { token: string };
    const refused = await call(
      contact.action,
      makeRequest("/contact", {
        form: {
          name: "Alice Martin",
          email: "pas-une-adresse",
          phone: "",
          message: "Bonjour",
          offer: String(offerId),
          configuration: "o0=1&o1=4",
          website: "",
          submission: token,
        },
      }),
    );
    expect(refused.status).toBe(400);
    const kept = refused.data as {
      configuration: { query: string; lines: unknown[] } | null;
      configurationQuery: string;
    };
    expect(kept.configurationQuery).toBe("o0=1&o1=4");
    expect(kept.configuration?.query).toBe("o0=1&o1=4");
    expect(kept.configuration?.lines).toHaveLength(2);
    expect(await database.db.select().from(contactRequests)).toHaveLength(0);
  });

  it("a request without options keeps no configuration, and junk in the field is ignored", async () => {
    const [{ id: plain }] = await insertOffers(database.db, [buildOffer(2)]);
    const row = await createContactRequest(
      { name: "B", email: "b@example.fr", phone: null, message: "m", offer: plain },
      database.db,
      { configuration: "o0=1" },
    );
    const [stored] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, row.id));
    expect(stored.configuration).toBeNull();
    const page = await call(
      contact.loader,
      makeRequest(`/contact?offer=${offerId}&configuration=${encodeURIComponent("<script>")}`),
    );
    expect((page.data as { configuration: { query: string } }).configuration.query).toBe("");
  });
});
