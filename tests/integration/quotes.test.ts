import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as adminQuote from "../../app/routes/resources/admin-contact-quote[.]pdf";
import * as offerQuote from "../../app/routes/resources/offer-quote[.]pdf";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { saveLeaseScale } from "../../app/features/offers/lease.server";
import { bumpCatalogueVersion } from "../../app/features/offers/catalogue.server";
import { publicQuotePdf } from "../../app/features/quotes/public-quote.server";
import { requestQuote } from "../../app/features/quotes/quotes.server";
import { auditJournal, offers, quotes, users } from "../../app/platform/schema.server";
import { hashPassword } from "../../app/features/accounts/password.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildConfigurableOffer, buildOffer, insertOffers } from "../support/offers";
import { pdfPages, pdfText } from "../support/pdf-text";

const { database, sessionCookieFor, signedInAdmin } = useAdminSuite();

let offerId: number;
let cookie: string;

/** The loader's answer as the browser gets it. */
async function download(
  loader: (args: never) => unknown,
  path: string,
  params: Record<string, string>,
  headers: { cookie?: string } = {},
) {
  const response = (await loader({
    request: makeRequest(path, headers),
    params,
    context: testContext,
  } as never)) as Response;
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe(`quotes (${testDatabaseKind})`, () => {
  beforeEach(async () => {
    ({ cookie } = await signedInAdmin());
    [{ id: offerId }] = await insertOffers(database.db, [
      buildConfigurableOffer(1, { title: "EPYC Sécurisé", reference: "EPYC-SEC" }),
    ]);
  });

  it("the offer page's quote is an A4 PDF of the configuration, amounts and accents readable", async () => {
    const { response, bytes } = await download(
      offerQuote.loader,
      "/offers/offre-1/devis.pdf?o0=1&o1=4",
      { slug: "offre-1" },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="devis-offre-1-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    expect(await pdfPages(bytes)).toEqual({ count: 1, width: 595, height: 842 });
    const text = await pdfText(bytes);
    for (const expected of [
      "Devis indicatif",
      "EPYC Sécurisé — Référence EPYC-SEC",
      "Mémoire",
      "256 Go",
      "+40,00 €",
      "IPv4 supplémentaires",
      "+20,00 €",
      "177,00 €", // monthly HT: 129 + 40 + 4 × 2
      "35,40 €", // VAT 20 %
      "212,40 €", // TTC
      "69,00 €", // setup HT: 49 + 4 × 5
      "82,80 €",
      "N° TVA intracommunautaire : FR32123456789",
      "SIREN 123 456 789 — RCS Paris",
      "valable 30 jours",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("keeps the public quote's bytes for the day, until the catalogue changes (issue 28)", async () => {
    // The suite empties app_state before each test: a version of its own for this one.
    await bumpCatalogueVersion(database.db);
    const ask = (query: string, now?: Date) =>
      publicQuotePdf("offre-1", new URLSearchParams(query), "198.51.100.1", database.db, now);
    const first = await ask("o0=1&o1=4");
    const again = await ask("o1=04&o0=1");
    if (first.kind !== "pdf" || again.kind !== "pdf") throw new Error("no PDF");
    expect([first.cached, again.cached]).toEqual([false, true]);
    expect(again.etag).toBe(first.etag);
    // Another day: another document (its date), rendered again.
    const tomorrow = await ask("o0=1&o1=4", new Date(Date.now() + 86_400_000));
    expect(tomorrow).toMatchObject({ kind: "pdf", cached: false });
    await bumpCatalogueVersion(database.db);
    const after = await ask("o0=1&o1=4");
    if (after.kind !== "pdf") throw new Error("no PDF");
    // Rendered again after the change, and the same bytes since the offer is the same.
    expect(after.cached).toBe(false);
    expect(after.pdf.equals(first.pdf)).toBe(true);
    expect(await publicQuotePdf("inconnue", new URLSearchParams(), "198.51.100.1")).toEqual({
      kind: "missing",
    });
  });

  it("refuses a malformed configuration with a French 400 and an unknown offer with a 404", async () => {
    const bad = await download(offerQuote.loader, "/offers/offre-1/devis.pdf?o0=abc", {
      slug: "offre-1",
    });
    expect(bad.response.status).toBe(400);
    expect(new TextDecoder().decode(bad.bytes)).toContain("La configuration demandée");
    const unknown = await download(offerQuote.loader, "/offers/inconnue/devis.pdf", {
      slug: "inconnue",
    });
    expect(unknown.response.status).toBe(404);
    const hidden = await download(offerQuote.loader, "/offers/offre-1/devis.pdf", {
      slug: "Offre 1",
    });
    expect(hidden.response.status).toBe(404);
  });

  it("an LOA's quote gives the simulated lease and the financer's mention", async () => {
    await saveLeaseScale(
      { rates: [{ months: 36, coefficient: "0.03150" }], purchaseOptionPercent: "1.50" },
      database.db,
    );
    await insertOffers(database.db, [
      buildOffer(2, {
        type: "loa",
        price: "400.00",
        financedAmount: "13000.00",
        leaseDurations: [36],
        loaMonths: 36,
      }),
    ]);
    const { bytes } = await download(offerQuote.loader, "/offers/offre-2/devis.pdf?duree=36", {
      slug: "offre-2",
    });
    const text = await pdfText(bytes);
    expect(text).toContain("Location avec option d'achat");
    expect(text).toContain("36 mois");
    expect(text).toContain("409,50 € HT (soit 491,40 € TTC)");
    expect(text).toContain("14 937,00 € HT (soit 17 924,40 € TTC)");
    expect(text).toContain("Exemple Leasing SA");
  });

  it("a request's quote is addressed to the person, numbered once, the same document after", async () => {
    const year = new Intl.DateTimeFormat("fr-FR", {
      timeZone: "Europe/Paris",
      year: "numeric",
    }).format(new Date());
    const first = await createContactRequest(
      { name: "Zoé Lefèvre", email: "zoe@example.fr", phone: null, message: "m", offer: offerId },
      database.db,
      { configuration: "o0=1&o1=4" },
    );
    // The offer's price changes after the request: the quote keeps the request's amounts.
    await database.db.update(offers).set({ price: "999.00" }).where(eq(offers.id, offerId));
    const path = `/admin/contacts/${first.id}/devis.pdf`;
    const one = await download(adminQuote.loader, path, { id: String(first.id) }, { cookie });
    expect(one.response.status).toBe(200);
    expect(one.response.headers.get("cache-control")).toBe("no-store");
    expect(one.response.headers.get("content-disposition")).toBe(
      `attachment; filename="DEV-${year}-00001.pdf"`,
    );
    const text = await pdfText(one.bytes);
    expect(text).toContain(`N° DEV-${year}-00001`);
    expect(text).toContain("Zoé Lefèvre");
    expect(text).toContain("zoe@example.fr");
    expect(text).toContain("177,00 €");
    expect(text).not.toContain("999,00");

    const again = await download(adminQuote.loader, path, { id: String(first.id) }, { cookie });
    expect(await pdfText(again.bytes)).toContain(`N° DEV-${year}-00001`);

    const second = await createContactRequest(
      { name: "Paul", email: "paul@example.fr", phone: null, message: "m", offer: offerId },
      database.db,
    );
    // Two downloads at once of a request never quoted: one number.
    const both = await Promise.all([requestQuote(second.id), requestQuote(second.id)]);
    expect(both.map((q) => q.kind === "quote" && q.number)).toEqual([
      `DEV-${year}-00002`,
      `DEV-${year}-00002`,
    ]);
    expect(await database.db.select().from(quotes)).toHaveLength(2);
    const journal = await database.db
      .select()
      .from(auditJournal)
      .where(eq(auditJournal.action, "quote-exported"));
    expect(journal.map((e) => e.target)).toEqual([`DEV-${year}-00001`, `DEV-${year}-00001`]);
  });

  it("a Commercial may download it, a Catalogue account may not; a general request has none", async () => {
    const general = await createContactRequest(
      { name: "G", email: "g@example.fr", phone: null, message: "m", offer: null },
      database.db,
    );
    const passwordHash = await hashPassword("un mot de passe de test assez long");
    const [sales, catalogue] = await database.db
      .insert(users)
      .values([
        { email: "sales@example.fr", passwordHash, role: "sales" },
        { email: "catalogue@example.fr", passwordHash, role: "catalogue" },
      ])
      .returning({ id: users.id });
    const path = `/admin/contacts/${general.id}/devis.pdf`;
    const asSales = await call(
      adminQuote.loader,
      makeRequest(path, { cookie: await sessionCookieFor(sales.id) }),
      testContext,
      { id: String(general.id) },
    );
    expect(asSales.status).toBe(409);
    const asCatalogue = await call(
      adminQuote.loader,
      makeRequest(path, { cookie: await sessionCookieFor(catalogue.id) }),
      testContext,
      { id: String(general.id) },
    );
    expect(asCatalogue.status).toBe(403);
    const missing = await call(
      adminQuote.loader,
      makeRequest("/admin/contacts/999999/devis.pdf", { cookie }),
      testContext,
      { id: "999999" },
    );
    expect(missing.status).toBe(404);
    expect(await database.db.select().from(quotes)).toHaveLength(0);
  });
});
