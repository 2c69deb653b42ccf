import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../support/pdf-text";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import { type ServerProcess, startServer } from "./harness/server-process";
import { MAIL_ENV } from "./harness/use-server";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, removeDir, signInOverHttp, tempDir } from "./support";

/**
 * A signed quote stays what was signed (issue 40): accepted under one seller identity, then the
 * built server restarted on the same data with another SITE_LEGAL_NAME and SITE_ADDRESS; the PDF
 * the buyer's link and the request's admin page serve is byte for byte the one accepted, with the
 * SHA-256 the buyer's page shows. A new quote sent over it is refused.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les devis signés" };
const BUYER = "signataire@example.fr";
const FIRST = { SITE_LEGAL_NAME: "Première Hébergement SAS", SITE_ADDRESS: "1 rue Initiale, Lyon" };
const SECOND = {
  SITE_LEGAL_NAME: "Seconde Infogérance SARL",
  SITE_ADDRESS: "2 quai Nouveau, Lille",
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let smtp: TestSmtpServer;
let dataDir: string;
let server: ServerProcess;

/** The built server on the file's data directory, with this seller. */
async function start(seller: Record<string, string>) {
  server = await startServer({
    port: await findFreePort(),
    dataDir,
    env: {
      SMTP_URL: smtp.url,
      ...MAIL_ENV,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...seller,
    },
  }).ready();
}

beforeAll(async () => {
  smtp = await startTestSmtpServer(await findFreePort());
  dataDir = tempDir("signed-quote");
  await start(FIRST);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  if (dataDir) removeDir(dataDir);
});

const get = (path: string, cookie = "") =>
  fetch(`${server.base}${path}`, {
    headers: { "X-Forwarded-For": clientAddress(3), ...(cookie ? { cookie } : {}) },
  });

const bytesOf = async (response: Response) => {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/pdf");
  return new Uint8Array(await response.arrayBuffer());
};

/** The mailed link of the quote sent to BUYER. */
async function mailedLink(): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mail = smtp.mails.find(
      (m) => m.envelope.to.includes(BUYER) && /Votre devis DEV-/.test(m.parsed.subject ?? ""),
    );
    const link = /https?:\/\/[^\s"<>]+\/devis\/[A-Za-z0-9_-]{43}/.exec(mail?.parsed.text ?? "");
    if (link) return new URL(link[0]).pathname;
    if (Date.now() > deadline) throw new Error("no quote mail to the buyer");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a signed quote across a change of the seller's settings", () => {
  it("serves the accepted bytes, whatever the seller's settings have become since", async () => {
    let cookie = await signInOverHttp(server.base, ADMIN);
    const offerPage = await (await get("/offers/epyc-performance-64")).text();
    const offer = /\/contact\?offer=(\d+)/.exec(offerPage)?.[1];
    expect(offer).toBeDefined();
    const contact = {
      name: "Sonia Signataire",
      email: BUYER,
      phone: "",
      company: "Signes SAS",
      siren: "732829320",
      message: "Un devis à signer, merci.",
      offer: offer!,
    };
    const sent = await postSiteForm(server.base, "/contact", contact, "", clientAddress(31));
    expect(sent.status).toBe(303);
    const id = Number(/DEM-\d{4}-(\d{5})/.exec(sent.headers.get("location") ?? "")?.[1]);
    const sendPath = `/admin/contacts/${id}/envoyer-devis`;
    expect((await postSiteForm(server.base, sendPath, { validity: "30" }, cookie)).status).toBe(
      302,
    );
    const path = await mailedLink();

    // What the buyer reads before answering, then accepts.
    const seen = await bytesOf(await get(`${path}/pdf`));
    expect(await pdfText(seen)).toContain(FIRST.SITE_LEGAL_NAME);
    const answer = { intent: "accept", name: "Sonia Signataire", role: "Présidente", agree: "on" };
    const accepted = await postSiteForm(server.base, path, answer, "", clientAddress(32));
    expect(accepted.status).toBe(303);
    const signed = await bytesOf(await get(`${path}/pdf`));
    expect(Buffer.from(signed).equals(Buffer.from(seen))).toBe(true);
    const page = decodeHtml(await (await get(path)).text());
    expect(page).toContain(sha256(signed));

    // The seller moves and changes its name: the server restarts with the new settings.
    await server.stopCleanly();
    await start(SECOND);
    cookie = await signInOverHttp(server.base, ADMIN);
    const offerNow = await (await get(`/offers/epyc-performance-64/devis.pdf`)).arrayBuffer();
    expect(await pdfText(new Uint8Array(offerNow))).toContain(SECOND.SITE_LEGAL_NAME);

    const again = await bytesOf(await get(`${path}/pdf`));
    expect(Buffer.from(again).equals(Buffer.from(signed))).toBe(true);
    const text = await pdfText(again);
    expect(text).toContain(FIRST.SITE_LEGAL_NAME);
    expect(text).not.toContain(SECOND.SITE_LEGAL_NAME);
    expect(decodeHtml(await (await get(path)).text())).toContain(sha256(again));
    const fromDesk = await bytesOf(await get(`/admin/contacts/${id}/devis.pdf`, cookie));
    expect(Buffer.from(fromDesk).equals(Buffer.from(signed))).toBe(true);

    // A signed order is not replaced by a new quote: a French 409; the request stays accepted.
    const replaced = await postSiteForm(server.base, sendPath, { validity: "30" }, cookie);
    expect(replaced.status).toBe(409);
    expect(decodeHtml(await replaced.text())).toContain("commande signée");
    expect(await (await get(`/admin/contacts/${id}`, cookie)).text()).toContain("Accepté");
    const form = decodeHtml(await (await get(sendPath, cookie)).text());
    expect(form).toContain("commande signée");
    expect(Buffer.from(await bytesOf(await get(`${path}/pdf`))).equals(Buffer.from(signed))).toBe(
      true,
    );
  });
});
