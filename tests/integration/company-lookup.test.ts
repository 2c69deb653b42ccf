import type { Request as ExpressRequest } from "express";
import { afterAll, describe, expect, it, vi } from "vitest";
import { contactRequests } from "../../app/platform/schema.server";
import { renderLimit } from "../../http-server/render-limit";
import { call, makeRequest } from "../support/admin";
import { SIRENS, startTestSireneServer } from "../support/sirene";
import { useTestDatabase } from "../support/use-test-database";

// Issue 41: the company of a SIREN, from the API Recherche d'entreprises (SIRENE_API_URL) played
// by a real HTTP server on loopback with the API's recorded answers, then hung, then failing: the
// JSON of /entreprise/:siren, and the contact form's post, which names the company when `Société`
// is empty and stores the request as typed, within about a second, whatever the API does.

const sirene = await startTestSireneServer();
process.env.SIRENE_API_URL = sirene.url;
process.env.CONTACT_RATE_LIMIT = "1000";

const lookupRoute = await import("../../app/routes/resources/company-lookup");
const contactRoute = await import("../../app/routes/public/contact");
const { companyDirectory } = await import("../../app/features/desk/company-lookup.server");

const database = useTestDatabase();
afterAll(() => sirene.stop());

const context = { requestId: "test", cspNonce: "", clientIp: "203.0.113.41" };

async function answer(siren: string, clientIp = context.clientIp) {
  return (await lookupRoute.loader({
    request: makeRequest(`/entreprise/${siren}`),
    params: { siren },
    context: { ...context, clientIp },
  } as never)) as Response;
}

async function lookup(siren: string) {
  const response = await answer(siren);
  return {
    status: response.status,
    cacheControl: response.headers.get("cache-control"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function post(fields: Record<string, string>) {
  const page = await call(contactRoute.loader as never, makeRequest("/contact"), context);
  const { token, companyLookup } = page.data as { token: string; companyLookup: boolean };
  expect(companyLookup).toBe(true);
  const form = {
    name: "Jeanne Martin",
    email: "jeanne@example.fr",
    message: "Bonjour, un devis pour une LOA svp.",
    offer: "",
    submission: token,
    ...fields,
  };
  const started = performance.now();
  const answer = await call(
    contactRoute.action as never,
    makeRequest("/contact", { form }),
    context,
  );
  return { answer, ms: performance.now() - started };
}

async function storedCompany(siren: string) {
  const rows = await database.db
    .select({ company: contactRequests.company, siren: contactRequests.siren })
    .from(contactRequests);
  return rows.filter((row) => row.siren === siren).map((row) => row.company);
}

describe("GET /entreprise/:siren", () => {
  it("answers what the register says of an active company, kept an hour by the browser", async () => {
    sirene.mode = "recorded";
    const answer = await lookup(SIRENS.active);
    expect(answer.status).toBe(200);
    expect(answer.cacheControl).toBe("private, max-age=3600");
    expect(answer.body).toEqual({
      found: true,
      name: "ACME SAS",
      legalForm: "SAS",
      address: "12 RUE DE LA PAIX 75002 PARIS",
      headOffice: true,
      closed: false,
      closedOn: null,
      summary: "ACME SAS — SAS, 12 RUE DE LA PAIX 75002 PARIS (siège)",
      warning: null,
    });
    expect(sirene.searches).toContain(SIRENS.active);
    // Asked again: from memory, the API is not asked twice.
    const asked = sirene.searches.length;
    expect((await lookup("732 829 320")).body).toMatchObject({ found: true, name: "ACME SAS" });
    expect(sirene.searches.length).toBe(asked);
  });

  it("warns of a closed company, and says when a SIREN names none", async () => {
    sirene.mode = "recorded";
    expect((await lookup(SIRENS.closed)).body).toMatchObject({
      found: true,
      closed: true,
      closedOn: "2023-03-31",
      warning: "Cette entreprise est fermée depuis le 31/03/2023.",
    });
    const unknown = await lookup(SIRENS.unknown);
    expect(unknown).toEqual({
      status: 200,
      cacheControl: "private, max-age=3600",
      body: { found: false },
    });
  });

  it("refuses a malformed SIREN with 400 and a French message, asking nothing", async () => {
    const asked = sirene.searches.length;
    for (const siren of ["732829321", "12345", "abcdefghi", "7328293200", "%00"]) {
      const answer = await lookup(siren);
      expect(answer.status, siren).toBe(400);
      expect(answer.body, siren).toEqual({
        error: "Le SIREN doit comporter 9 chiffres et sa clé de contrôle doit être valide.",
      });
    }
    expect(sirene.searches.length).toBe(asked);
  });

  it("is limited per client like every render", async () => {
    const limit = renderLimit({ perMinute: 60, burst: 2, pauseMs: 0 });
    const request = (ip: string) =>
      ({ method: "GET", path: `/entreprise/${SIRENS.active}`, ip, headers: {} }) as ExpressRequest;
    expect(await limit(request("198.51.100.41"), "r")).toBeUndefined();
    expect(await limit(request("198.51.100.41"), "r")).toBeUndefined();
    expect((await limit(request("198.51.100.41"), "r"))?.status).toBe(429);
    expect(await limit(request("198.51.100.42"), "r")).toBeUndefined();
  });

  it("answers 10 lookups of a client at once, then 429 with Retry-After and a French message", async () => {
    sirene.mode = "recorded";
    for (let i = 0; i < 10; i++) {
      expect((await answer(SIRENS.active, "198.51.100.43")).status, String(i)).toBe(200);
    }
    const refused = await answer(SIRENS.active, "198.51.100.43");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error:
        "Trop de recherches d'entreprise depuis votre connexion. Veuillez réessayer dans 1 minute.",
    });
    expect((await answer(SIRENS.active, "198.51.100.44")).status).toBe(200);
  });
});

describe("the contact form's post (without JavaScript)", () => {
  it("names the company of the SIREN when `Société` is left empty", async () => {
    sirene.mode = "recorded";
    const { answer } = await post({ siren: "732 829 320", company: "" });
    expect(answer.status).toBe(303);
    expect(await storedCompany(SIRENS.active)).toEqual(["ACME SAS"]);
  });

  it("keeps what the visitor typed, and asks nothing for it", async () => {
    sirene.mode = "recorded";
    const asked = sirene.searches.length;
    await post({ siren: SIRENS.closed, company: "Fonderie Dupont (reprise)" });
    expect(await storedCompany(SIRENS.closed)).toEqual(["Fonderie Dupont (reprise)"]);
    expect(sirene.searches.length).toBe(asked);
  });

  it("stores the request as typed, within about a second, when the API never answers", async () => {
    sirene.mode = "silent";
    const { answer, ms } = await post({ siren: SIRENS.other, company: "" });
    expect(answer.status).toBe(303);
    expect(ms).toBeLessThan(2_500);
    expect(await storedCompany(SIRENS.other)).toEqual([null]);
    // The script's question gets "not found", never kept by the browser.
    const hung = await lookup(SIRENS.other);
    expect(hung).toEqual({
      status: 200,
      cacheControl: "private, no-store",
      body: { found: false },
    });
  });

  it("stores the request as typed when the API fails (500), and asks again next time", async () => {
    sirene.mode = "failing";
    await post({ siren: SIRENS.another, company: "" });
    expect(await storedCompany(SIRENS.another)).toEqual([null]);
    // A failure is not kept: once the API is back, the same SIREN is asked again.
    sirene.mode = "recorded";
    expect((await lookup(SIRENS.another)).body).toEqual({ found: false });
    expect(sirene.searches.filter((q) => q === SIRENS.another)).toHaveLength(2);
  });
});

describe("companyDirectory", () => {
  it("gives up after its timeout, and asks once for the same SIREN asked twice at once", async () => {
    const hung = await startTestSireneServer("silent");
    try {
      const find = companyDirectory({ baseUrl: `${hung.url}/`, timeoutMs: 200 });
      const started = performance.now();
      const answers = await Promise.all([find(SIRENS.active), find(SIRENS.active)]);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(answers).toEqual([{ status: "unavailable" }, { status: "unavailable" }]);
      expect(hung.searches).toEqual([SIRENS.active]);
    } finally {
      await hung.stop();
    }
  });

  it("says unavailable when nothing listens", async () => {
    const gone = await startTestSireneServer();
    await gone.stop();
    const find = companyDirectory({ baseUrl: gone.url });
    expect(await find(SIRENS.active)).toEqual({ status: "unavailable" });
  });
});

describe("without SIRENE_API_URL", () => {
  it("looks nothing up: no line on the form, 404 for the script's address", async () => {
    vi.resetModules();
    delete process.env.SIRENE_API_URL;
    const asked = sirene.searches.length;
    const route = await import("../../app/routes/resources/company-lookup");
    const answer = (await route.loader({
      request: makeRequest(`/entreprise/${SIRENS.active}`),
      params: { siren: SIRENS.active },
      context,
    } as never)) as Response;
    expect(answer.status).toBe(404);
    const { companyLookupEnabled } = await import("../../app/features/desk/company-lookup.server");
    expect(companyLookupEnabled()).toBe(false);
    expect(sirene.searches.length).toBe(asked);
  });
});
