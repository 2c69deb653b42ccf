import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { ContactOfferField } from "../../app/features/desk/contact-offers.server";
import { contactRequests, offers, type NewOffer } from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { buildOffer, insertOffers } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

// Above this many active offers the contact form searches (the environment is read once).
process.env.CONTACT_OFFER_SELECT_MAX = "5";
process.env.CONTACT_RATE_LIMIT = "1000";

const { loader: searchLoader } = await import("../../app/routes/resources/contact-offers");
const contactRoute = await import("../../app/routes/public/contact");

const database = useTestDatabase();

const offer = (n: number, fields: Partial<NewOffer> = {}) =>
  buildOffer(n, {
    title: `Serveur ${String(n).padStart(2, "0")}`,
    slug: `serveur-${n}`,
    ...fields,
  });

const insert = (rows: NewOffer[]) => insertOffers(database.db, rows);

type Answer = {
  offers?: { id: number; title: string; reference: string; price: string }[];
  more?: boolean;
  summary?: string;
  error?: string;
};

async function search(q: string | null, extra = "") {
  const query = q === null ? "" : `?q=${encodeURIComponent(q)}`;
  const response = (await searchLoader({
    request: makeRequest(`/contact/offers${query}${extra}`),
    params: {},
    context: { requestId: "test", cspNonce: "", clientIp: "203.0.113.7" },
  } as never)) as Response;
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Answer,
  };
}

const titles = (answer: Answer) => answer.offers?.map((o) => o.title);

beforeEach(async () => {
  await database.db.execute(sql`truncate ${contactRequests}, ${offers} restart identity cascade`);
});

describe("GET /contact/offers (the combobox's search)", () => {
  beforeEach(async () => {
    await insert([
      offer(1, { title: "EPYC Alpha", reference: "DED-EPYC-7543", price: "899.99" }),
      offer(2, { title: "Xeon Beta", reference: "LOA-XEON-01" }),
      offer(3, { title: "Ryzen Gamma", cpu: "AMD EPYC-like Ryzen", ram: "epyc ram" }),
      offer(4, { title: "Promo 100% Delta", reference: "PROMO_100" }),
      offer(5, { title: "Promo 1000 Epsilon", reference: "PROMOX100" }),
      offer(6, { title: "Hidden epyc", reference: "DED-EPYC-9254", isActive: false }),
      offer(7, { title: "Reference only", reference: "ded-epyc-x" }),
    ]);
  });

  it("searches as the listing does, active offers only, titles and references first", async () => {
    const { status, body, headers } = await search("EpYc");
    expect(status).toBe(200);
    // 'Ryzen Gamma' says epyc in its cpu only: after the titles and references; not the inactive offer.
    expect(titles(body)).toEqual(["EPYC Alpha", "Reference only", "Ryzen Gamma"]);
    expect(body.more).toBe(false);
    expect(body.summary).toBe("3 offres trouvées");
    expect(body.offers?.[0]).toEqual({
      id: 1,
      title: "EPYC Alpha",
      reference: "DED-EPYC-7543",
      price: expect.stringMatching(/^899,99\s€\sHT\/mois$/),
    });
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(headers.get("cache-control")).toBe("public, max-age=30, s-maxage=30");
    expect(titles((await search("loa-xeon")).body)).toEqual(["Xeon Beta"]);
  });

  it("reads punctuation as a separator, never as a pattern", async () => {
    // The whole word first, then the word it begins.
    expect(titles((await search("100%")).body), "100%").toEqual([
      "Promo 100% Delta",
      "Promo 1000 Epsilon",
    ]);
    expect(titles((await search("promo_100")).body), "promo_100").toEqual([
      "Promo 100% Delta",
      "Promo 1000 Epsilon",
    ]);
    expect(titles((await search("%")).body)).toEqual([]);
    expect((await search("%%")).body.summary).toBe("Aucune offre ne correspond à votre recherche.");
  });

  it("answers at most 20 offers and says there are more", async () => {
    await insert(Array.from({ length: 25 }, (_, i) => offer(100 + i, { title: `Lot ${100 + i}` })));
    const { body } = await search("lot");
    expect(body.offers).toHaveLength(20);
    expect(body.more).toBe(true);
    expect(body.summary).toBe("Plus de 20 offres trouvées : précisez votre recherche.");
    expect(titles(body)?.[0]).toBe("Lot 100");
  });

  it("never fails on junk: empty, short, long, control characters, repeated or odd parameters", async () => {
    expect(await search(null)).toMatchObject({
      status: 200,
      body: { offers: [], more: false, summary: "" },
    });
    expect((await search("   ")).body).toEqual({ offers: [], more: false, summary: "" });
    expect((await search("e")).body).toEqual({
      offers: [],
      more: false,
      summary: "Saisissez au moins 2 caractères du titre ou de la référence.",
    });
    const long = await search("x".repeat(101));
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: "La recherche ne doit pas dépasser 100 caractères." });
    const control = await search("ep\u0000yc");
    expect(control.status).toBe(400);
    expect(control.body.error).toBe("La recherche contient des caractères non autorisés.");
    expect(titles((await search("epyc", "&q=zzz&q[]=1&offer=abc")).body)).toEqual([
      "EPYC Alpha",
      "Reference only",
      "Ryzen Gamma",
    ]);
    for (const junk of ["'; drop table offers; --", "\\", "\\%", "€😀", "\u202e<script>"]) {
      const answer = await search(junk);
      expect(answer.status, junk).toBe(200);
      expect(answer.body.offers, junk).toEqual([]);
    }
    expect(await database.db.$count(offers)).toBe(7);
  });
});

describe("/contact's offer field", () => {
  const context = { requestId: "test", cspNonce: "", clientIp: "203.0.113.9" };
  const load = async (path: string) =>
    (await call(contactRoute.loader as never, makeRequest(path), context)).data as {
      offerField: ContactOfferField;
      token: string;
    };

  it("keeps the spec's selector of every active offer up to the threshold", async () => {
    const rows = await insert([
      ...Array.from({ length: 5 }, (_, i) => offer(i + 1)),
      offer(9, { isActive: false }),
    ]);
    const { offerField } = await load(`/contact?offer=${rows[2].id}`);
    expect(offerField.mode).toBe("select");
    if (offerField.mode !== "select") return;
    expect(offerField.choices.map((c) => c.title)).toEqual([
      "Serveur 01",
      "Serveur 02",
      "Serveur 03",
      "Serveur 04",
      "Serveur 05",
    ]);
    expect(offerField.preselected?.id).toBe(rows[2].id);
    expect((await load(`/contact?offer=${rows[5].id}`)).offerField.preselected).toBeUndefined();
  });

  it("searches beyond it: preselection by id, GET search, notices instead of errors", async () => {
    const rows = await insert([
      ...Array.from({ length: 6 }, (_, i) => offer(i + 1)),
      offer(7, { title: "EPYC Alpha", reference: "DED-EPYC-7543", price: "899.99" }),
      offer(8, { title: "EPYC Hidden", isActive: false }),
    ]);
    const plain = (await load("/contact")).offerField;
    expect(plain).toEqual({ mode: "search", query: "", results: null, more: false });

    const preselected = (await load(`/contact?offer=${rows[6].id}`)).offerField;
    expect(preselected.mode).toBe("search");
    expect(preselected.preselected).toEqual({
      id: rows[6].id,
      title: "EPYC Alpha",
      reference: "DED-EPYC-7543",
      price: "899.99",
    });
    // Inactive or unknown: ignored, the form starts on 'Demande générale'.
    for (const id of [rows[7].id, 999999, "abc"]) {
      expect((await load(`/contact?offer=${id}`)).offerField.preselected).toBeUndefined();
    }

    const found = (await load("/contact?offer_q=epyc")).offerField;
    expect(found).toMatchObject({ mode: "search", query: "epyc", more: false });
    if (found.mode !== "search") return;
    expect(found.results?.map((r) => r.title)).toEqual(["EPYC Alpha"]);

    const short = (await load("/contact?offer_q=e")).offerField;
    expect(short).toMatchObject({
      results: null,
      notice: "Saisissez au moins 2 caractères du titre ou de la référence.",
    });
    const long = (await load(`/contact?offer_q=${"x".repeat(300)}`)).offerField;
    expect(long).toMatchObject({
      results: null,
      notice: "La recherche ne doit pas dépasser 100 caractères.",
    });
  });

  it("stores the chosen offer, and gives it back with a refused post", async () => {
    const rows = await insert([
      ...Array.from({ length: 6 }, (_, i) => offer(i + 1)),
      offer(7, { title: "EPYC Alpha", reference: "DED-EPYC-7543" }),
    ]);
    const form = {
      name: "Jeanne Martin",
      email: "jeanne@example.fr",
      phone: "",
      message: "Bonjour",
      offer: String(rows[6].id),
    };
    const sent = await call(
      contactRoute.action as never,
      makeRequest("/contact", { form }),
      context,
    );
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/^\/contact\/merci\?ref=DEM-\d{4}-\d{5}$/);
    const [stored] = await database.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.email, "jeanne@example.fr"));
    expect(stored).toMatchObject({ offerId: rows[6].id, offerTitle: "EPYC Alpha" });

    const refused = await call(
      contactRoute.action as never,
      makeRequest("/contact", { form: { ...form, message: " " } }),
      context,
    );
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      error: "Champs manquants",
      offerChoice: { id: rows[6].id, title: "EPYC Alpha", reference: "DED-EPYC-7543" },
    });
    const junk = await call(
      contactRoute.action as never,
      makeRequest("/contact", { form: { ...form, offer: "99999999999" } }),
      context,
    );
    expect(junk.status).toBe(400);
    expect((junk.data as { offerChoice?: unknown }).offerChoice).toBeUndefined();
  });
});
