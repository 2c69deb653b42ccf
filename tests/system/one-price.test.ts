import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LeaseScale } from "../../app/lib/offer-price";
import { formatCents } from "../../app/lib/money";
import { pdfText, plainSpaces } from "../support/pdf-text";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import {
  centsIn,
  expectedPrice,
  mismatches,
  preparePriceCatalogue,
  textOf,
  walkSurfaces,
  type ExpectedPrice,
  type RuleSource,
  type Seen,
} from "./harness/price-walk";
import { startServer, type ServerProcess } from "./harness/server-process";
import { MAIL_ENV } from "./harness/use-server";
import { clientAddress, postSiteForm, removeDir, signInOverHttp, tempDir } from "./support";

// Issue 39: one price per offer. The built server on the bench's catalogue (its generator, the
// demo offers among them) at PRICE_WALK_OFFERS offers (150 by default; `npm run bench:prices`
// walks 10,000): every public surface of every active offer over HTTP, then the request side of
// the LOA demo offers (acknowledgement, request page, quote PDF), then a new `Barème LOA`.
const OFFERS = Number(process.env.PRICE_WALK_OFFERS ?? 150);
const WALK_TIMEOUT = 240_000 + OFFERS * 400;
const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les prix" };
const LEASE_DEMO = ["loa-pme-36-mois", "loa-startup-24-mois", "loa-cluster-virtualisation"];

let server: ServerProcess;
let smtp: TestSmtpServer;
let dataDir: string;
let rows: RuleSource[];
let expected: ExpectedPrice[];
let contacts: Map<string, { id: number; configuration: string }>;

const get = (path: string, cookie = "") =>
  fetch(`${server.base}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
const bySlug = (slug: string) => expected.find((offer) => offer.slug === slug)!;

beforeAll(async () => {
  dataDir = tempDir("one-price");
  const prepared = await preparePriceCatalogue(dataDir, OFFERS);
  rows = prepared.rows;
  expected = rows.map((row) => expectedPrice(row, prepared.scale));
  smtp = await startTestSmtpServer(await findFreePort());
  server = await startServer({
    port: await findFreePort(),
    dataDir,
    env: {
      SMTP_URL: smtp.url,
      ...MAIL_ENV,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // Hundreds of uncached renders and PDFs from one address: not a flood.
      PUBLIC_RENDER_RATE_PER_MINUTE: "0",
      QUOTE_PDF_RATE_PER_MINUTE: "0",
    },
  }).ready();
}, WALK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  if (dataDir) removeDir(dataDir);
});

/** The `Total : …` and `Location : …` lines of a configuration (mail, request page). */
function configurationSeen(text: string): Seen {
  const total = /Total : (.*?)\/mois/.exec(text);
  const lease = /Location : (\d+) mois, option d'achat (.*?) HT, coût total (.*?) HT/.exec(text);
  if (!total || !lease) throw new Error(`no configured total or lease in « ${text} »`);
  return {
    monthly: centsIn(total[1]),
    months: Number(lease[1]),
    option: centsIn(lease[2]),
    total: centsIn(lease[3]),
  };
}

/** The rule's amounts in the shape a surface shows them. */
const asSeen = (offer: ExpectedPrice): Seen => ({
  monthly: offer.monthly,
  months: offer.lease?.months,
  option: offer.lease?.option,
  total: offer.lease?.total,
});

describe("one price per offer (built server)", () => {
  it(
    "shows the rule's amounts on every surface of every active offer",
    async () => {
      const walked = await walkSurfaces(get, expected);
      contacts = walked.contacts;
      expect(mismatches(expected, walked.sightings)).toEqual([]);
      // The buyer's case of issue 39, by the demo scale: 13 000 × 0,03150 and 1,5 %.
      expect(asSeen(bySlug("loa-pme-36-mois"))).toEqual({
        monthly: 40950,
        months: 36,
        option: 19500,
        total: 40950 * 36 + 19500,
      });
      const scaled = rows.filter((row) => row.type === "loa" && row.financedAmount !== null);
      console.log(
        `one price: ${expected.length} active offers (${scaled.length} priced by the scale), ` +
          `${[...walked.sightings.values()].reduce((n, seen) => n + seen.size, 0)} amounts read`,
      );
    },
    WALK_TIMEOUT,
  );

  it("gives the same amounts in the acknowledgement, the request's page and its quote", async () => {
    const cookie = await signInOverHttp(server.base, ADMIN);
    for (const [n, slug] of LEASE_DEMO.entries()) {
      const offer = bySlug(slug);
      const link = contacts.get(slug)!;
      const email = `${slug}@example.fr`;
      const posted = await postSiteForm(
        server.base,
        "/contact",
        {
          name: "Acheteur Test",
          email,
          phone: "",
          // A lease is for professionals: the form asks for the company's SIREN.
          company: "ACME SAS",
          siren: "732829320",
          offer: String(link.id),
          configuration: link.configuration,
          message: "Bonjour, ce financement nous intéresse.",
          website: "",
        },
        "",
        clientAddress(3900 + n),
      );
      expect(posted.status, slug).toBe(303);
      const reference = /(DEM-\d{4}-\d{5})/.exec(posted.headers.get("location") ?? "")?.[1];
      expect(reference, slug).toBeDefined();

      await smtp.waitForMails(2 * (n + 1));
      const ack = smtp.mails.find((m) => m.envelope.to.includes(email));
      expect(configurationSeen(plainSpaces(ack?.parsed.text ?? "")), `${slug}: mail`).toEqual(
        asSeen(offer),
      );

      const id = Number(reference!.slice(-5));
      const page = textOf(await (await get(`/admin/contacts/${id}`, cookie)).text());
      const current = new RegExp(`\\(${offer.reference}\\) — (.*?)/mois`).exec(page);
      expect(current && centsIn(current[1]), `${slug}: request page's offer`).toBe(offer.monthly);
      expect(configurationSeen(page), `${slug}: request page's configuration`).toEqual(
        asSeen(offer),
      );

      const quote = await get(`/admin/contacts/${id}/devis.pdf`, cookie);
      expect(quote.status).toBe(200);
      const text = plainSpaces(await pdfText(await quote.arrayBuffer())).replace(/\s+/g, " ");
      const amount = (cents: number | null | undefined) => plainSpaces(formatCents(cents ?? 0));
      for (const shown of [
        `${amount(offer.monthly)} HT (soit`,
        `${offer.lease!.months} mois`,
        `${amount(offer.lease!.option)} HT (soit`,
        `${amount(offer.lease!.total)} HT (soit`,
      ]) {
        expect(text, `${slug}: quote`).toContain(shown);
      }
    }
  });

  it(
    "reprices every LOA offer everywhere, cached pages included, when the scale changes",
    async () => {
      const cookie = await signInOverHttp(server.base, ADMIN);
      const scale: LeaseScale = {
        rates: [
          { months: 24, coefficient: "0.04700" },
          { months: 36, coefficient: "0.03200" },
          { months: 48, coefficient: "0.02550" },
          { months: 60, coefficient: "0.02150" },
        ],
        purchaseOptionPercent: "2",
      };
      const saved = await postSiteForm(
        server.base,
        "/admin/lease",
        {
          ...Object.fromEntries(scale.rates.map((r) => [`c${r.months}`, r.coefficient])),
          purchaseOptionPercent: scale.purchaseOptionPercent,
        },
        cookie,
      );
      expect(saved.status).toBe(302);
      const before = bySlug("loa-pme-36-mois").monthly;
      expected = rows.map((row) => expectedPrice(row, scale));
      expect(bySlug("loa-pme-36-mois").monthly).toBe(41600); // 13 000 × 0,03200
      expect(before).not.toBe(41600);
      const walked = await walkSurfaces(get, expected);
      expect(mismatches(expected, walked.sightings)).toEqual([]);
    },
    WALK_TIMEOUT,
  );
});
