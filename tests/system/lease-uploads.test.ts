import { createHash } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EICAR, startTestClamd, type TestClamd } from "../support/clamd";
import {
  bombPdf,
  htmlPdfPolyglot,
  pdfBytes,
  pdfOfSize,
  peExecutable,
} from "../support/lease-documents";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { findFreePort } from "./harness/ports";
import { type ServerProcess, startServer } from "./harness/server-process";
import { hasPostgres, usePostgresServers } from "./harness/use-postgres";
import { MAIL_ENV } from "./harness/use-server";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, removeDir, signInOverHttp, sleep, tempDir } from "./support";

/**
 * The LOA file's uploads (issue 41) against the built server over real HTTP: a buyer's accepted
 * LOA quote reached as a buyer reaches it (contact form, quote sent from the admin form, link read
 * from the mail, `Bon pour accord`), then documents posted as a browser posts them. Every hostile
 * post is a French 4xx and stores nothing, clamd included; a valid PDF is `Reçu`. Then two
 * instances on one PostgreSQL: uploaded through one, downloaded byte for byte through the other.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les pièces LOA" };
const MB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer(await findFreePort());
});
afterAll(async () => {
  await smtp?.stop();
});

/** What a server needs here beyond its database: mails to the test's SMTP, the first admin. */
const serverEnv = (extra: Record<string, string> = {}) => ({
  SMTP_URL: smtp.url,
  ...MAIL_ENV,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  ...extra,
});

let clients = 100;
/** A fresh client address for each request: no per-client limit is what these tests are about. */
const nextClient = () => clientAddress(clients++);

const get = (base: string, path: string, cookie = "") =>
  fetch(`${base}${path}`, {
    headers: { "X-Forwarded-For": nextClient(), ...(cookie ? { cookie } : {}) },
  });
const pageText = async (base: string, path: string, cookie = "") => {
  const response = await get(base, path, cookie);
  expect(response.status, path).toBe(200);
  return decodeHtml(await response.text());
};

/** The quote link mailed to `buyer` (its path). */
async function mailedLink(buyer: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mail = smtp.mails.find(
      (m) => m.envelope.to.includes(buyer) && /Votre devis DEV-/.test(m.parsed.subject ?? ""),
    );
    const link = /https?:\/\/[^\s"<>]+\/devis\/[A-Za-z0-9_-]{43}/.exec(mail?.parsed.text ?? "");
    if (link) return new URL(link[0]).pathname;
    if (Date.now() > deadline) throw new Error(`no quote mail to ${buyer}`);
    await sleep(100);
  }
}

type LeaseFile = { base: string; path: string; requestId: number; cookie: string; kinds: string[] };

/**
 * An accepted LOA quote, the buyer's way: the contact form on the demo's LOA offer, the quote sent
 * from the request's admin form, its mailed link, `Bon pour accord`. Returns the file's page and
 * the document kinds its upload forms name, the Kbis first.
 */
async function acceptedLeaseQuote(base: string, buyer: string): Promise<LeaseFile> {
  const cookie = await signInOverHttp(base, ADMIN);
  const offerPage = await pageText(base, "/offers/loa-pme-36-mois");
  const offer = /\/contact\?offer=(\d+)/.exec(offerPage)?.[1];
  expect(offer, "the demo's LOA offer").toBeDefined();
  const contact = {
    name: "Louise Bailleur",
    email: buyer,
    phone: "",
    company: "Bail Conseil SAS",
    siren: "732829320",
    message: "Une LOA sur 36 mois, merci.",
    offer: offer!,
  };
  const sent = await postSiteForm(base, "/contact", contact, "", nextClient());
  expect(sent.status).toBe(303);
  const requestId = Number(/DEM-\d{4}-(\d{5})/.exec(sent.headers.get("location") ?? "")?.[1]);
  expect(requestId).toBeGreaterThan(0);
  const quoteSent = await postSiteForm(
    base,
    `/admin/contacts/${requestId}/envoyer-devis`,
    { validity: "30" },
    cookie,
  );
  expect(quoteSent.status).toBe(302);
  const path = await mailedLink(buyer);
  const answer = { intent: "accept", name: "Louise Bailleur", role: "Gérante", agree: "on" };
  expect((await postSiteForm(base, path, answer, "", nextClient())).status).toBe(303);
  const page = await pageText(base, path);
  expect(page).toContain("Votre dossier de financement");
  const kinds = [...page.matchAll(/name="kind" value="(\d+)"/g)].map((m) => m[1]);
  expect(kinds.length).toBeGreaterThan(0);
  return { base, path, requestId, cookie, kinds };
}

type Upload = { name: string; data: Buffer; type?: string };

/** The upload form's body, as a browser builds it. */
function documentsForm(kind: string, files: Upload[]): FormData {
  const form = new FormData();
  form.set("intent", "documents");
  form.set("kind", kind);
  for (const file of files) {
    const blob = new Blob([new Uint8Array(file.data)], { type: file.type ?? "application/pdf" });
    form.append("document", blob, file.name);
  }
  return form;
}

/** `Envoyer` on the quote's page, as a browser posts it (multipart, the site's Origin). */
function postDocuments(file: LeaseFile, files: Upload[], kind = file.kinds[0]) {
  return fetch(`${file.base}${file.path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Accept: "text/html", Origin: file.base, "X-Forwarded-For": nextClient() },
    body: documentsForm(kind, files),
  });
}

/** The request's admin page links no document, and the buyer's page shows none received. */
async function expectNothingStored(file: LeaseFile) {
  const desk = await pageText(file.base, `/admin/contacts/${file.requestId}`, file.cookie);
  expect(desk).toContain("Dossier LOA");
  expect(desk).not.toContain(`/admin/contacts/${file.requestId}/documents/`);
  const buyer = await pageText(file.base, file.path);
  expect(buyer).not.toMatch(/>Reçu</);
  expect(buyer).toContain("Dossier incomplet");
}

/**
 * A raw HTTP/1.1 post of a multipart body over a socket of our own: `send` decides how much of it
 * goes out; after all of it, a GET of /healthz on the same connection (which then closes).
 * Resolves with what the server answered before closing (possibly nothing).
 */
async function rawPost(
  file: LeaseFile,
  form: FormData,
  options: { declaredLength?: number; send: "nothing" | "half" | "all" },
): Promise<{ answer: string; bodyBytesSent: number }> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const port = Number(new URL(file.base).port);
  const head = [
    `POST ${file.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Origin: ${file.base}`,
    `X-Forwarded-For: ${nextClient()}`,
    "Accept: text/html",
    `Content-Type: ${encoded.headers.get("content-type")}`,
    `Content-Length: ${options.declaredLength ?? body.length}`,
    "",
    "",
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const answer: Buffer[] = [];
    let bodyBytesSent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 15 s"));
    }, 15_000);
    socket.on("data", (chunk: Buffer) => answer.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ answer: Buffer.concat(answer).toString("utf8"), bodyBytesSent });
    });
    socket.on("connect", () => {
      socket.write(head);
      if (options.send === "half") {
        bodyBytesSent = Math.floor(body.length / 2);
        socket.write(body.subarray(0, bodyBytesSent), () => {
          // Let the server start reading the file, then the client goes away.
          setTimeout(() => socket.destroy(), 300);
        });
      } else if (options.send === "all") {
        bodyBytesSent = body.length;
        socket.write(body);
        socket.write(
          `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        );
      }
    });
  });
}

describe("the LOA file's uploads on one built server with clamd", () => {
  let clamd: TestClamd;
  let dataDir: string;
  let server: ServerProcess;
  let file: LeaseFile;

  beforeAll(async () => {
    clamd = await startTestClamd();
    dataDir = tempDir("lease-uploads");
    server = await startServer({
      port: await findFreePort(),
      dataDir,
      env: serverEnv({ CLAMAV_SOCKET: clamd.socket }),
    }).ready();
    file = await acceptedLeaseQuote(server.base, "bailleur@example.fr");
  });
  afterAll(async () => {
    await server?.stop();
    await clamd?.stop();
    if (dataDir) removeDir(dataDir);
  });

  it("refuses hostile files with a French 4xx and stores nothing", async () => {
    await expectNothingStored(file);
    const cases: [string, Upload[], RegExp][] = [
      ["11 MB", [{ name: "gros.pdf", data: pdfOfSize(11 * MB) }], /trop volumineux/i],
      ["a program named kbis.pdf", [{ name: "kbis.pdf", data: peExecutable() }], /ni un PDF/],
      ["an HTML/PDF polyglot", [{ name: "kbis.pdf", data: htmlPdfPolyglot() }], /page web/],
      [
        "a PDF inflating to 300 MB",
        [{ name: "bilan.pdf", data: await bombPdf(300) }],
        /volume démesuré/,
      ],
      [
        "30 files at once",
        Array.from({ length: 30 }, (_, i) => ({ name: `page-${i}.pdf`, data: pdfBytes() })),
        /Trop de fichiers/,
      ],
    ];
    for (const [name, files, message] of cases) {
      const response = await postDocuments(file, files);
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(response.status, name).toBeLessThan(500);
      const html = decodeHtml(await response.text());
      expect(html, name).toContain("Document refusé");
      expect(html, name).toMatch(message);
    }
    // A link that leads to no file: its answer too, not a cut connection.
    const elsewhere = { ...file, path: `/devis/${"x".repeat(43)}` };
    const unknown = await postDocuments(elsewhere, [{ name: "kbis.pdf", data: pdfBytes() }]);
    expect(unknown.status).toBe(404);
    expect(decodeHtml(await unknown.text())).toContain("Ce lien de devis n'est pas valide.");
    await expectNothingStored(file);
  });

  it("answers a file over the limit while it is still sent, and keeps the connection usable", async () => {
    // The 413 comes once 10 MB are read; the rest is read and dropped, not left blocking the
    // connection: the next request on it is answered.
    const form = documentsForm(file.kinds[0], [{ name: "gros.pdf", data: pdfOfSize(11 * MB) }]);
    const { answer } = await rawPost(file, form, { send: "all" });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Fichier trop volumineux");
    expect(answer).toMatch(/\r\n\r\n[\s\S]*HTTP\/1\.1 200 [\s\S]*"status":"ok"/);
    await expectNothingStored(file);
  });

  it("refuses a declared length over the limit before the body is sent", async () => {
    // 4 files of 10 MB and the fields are the most a post may carry: 50 MB is refused on its word.
    const form = documentsForm(file.kinds[0], [{ name: "kbis.pdf", data: pdfBytes() }]);
    const { answer, bodyBytesSent } = await rawPost(file, form, {
      declaredLength: 50 * MB,
      send: "nothing",
    });
    expect(bodyBytesSent).toBe(0);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(decodeHtml(answer)).toContain("dépassent la taille maximale autorisée");
    await expectNothingStored(file);
  });

  it("survives a connection cut mid-upload, storing nothing", async () => {
    const form = documentsForm(file.kinds[0], [{ name: "kbis.pdf", data: pdfOfSize(4 * MB) }]);
    const { bodyBytesSent } = await rawPost(file, form, { send: "half" });
    expect(bodyBytesSent).toBeGreaterThan(MB);
    expect(server.running).toBe(true);
    expect((await get(server.base, "/healthz")).status).toBe(200);
    await expectNothingStored(file);
  });

  it("refuses the EICAR test file, by its type as a file and by clamd inside a PDF", async () => {
    const bare = await postDocuments(file, [{ name: "rib.pdf", data: EICAR }]);
    expect(bare.status).toBe(415);
    expect(decodeHtml(await bare.text())).toMatch(/ni un PDF/);
    // A valid PDF carrying the test signature: past the type checks, clamd finds it.
    const inside = await postDocuments(file, [
      { name: "rib.pdf", data: pdfBytes(EICAR.toString("latin1")) },
    ]);
    expect(inside.status).toBe(422);
    expect(decodeHtml(await inside.text())).toContain(
      "Ce fichier a été refusé : l'antivirus y a détecté un contenu malveillant.",
    );
    await expectNothingStored(file);
  });

  it("accepts a valid PDF, shown as Reçu on the buyer's page", async () => {
    const accepted = await postDocuments(file, [{ name: "kbis.pdf", data: pdfBytes() }]);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(`${file.path}?document=recu#dossier`);
    const buyer = await pageText(server.base, `${file.path}?document=recu`);
    expect(buyer).toContain("Document reçu");
    expect(buyer.match(/>Reçu</g)).toHaveLength(1);
    const desk = await pageText(server.base, `/admin/contacts/${file.requestId}`, file.cookie);
    expect(desk).toContain(sha256(pdfBytes()));
    // Every refusal above was the upload code's own answer, none an error of the server.
    expect(server.running).toBe(true);
    expect(server.logLines("unhandled request error")).toEqual([]);
    const failed = server.logLines("request").filter((line) => Number(line.status) >= 500);
    expect(failed).toEqual([]);
  });
});

describe.skipIf(!hasPostgres)(
  "the LOA file's documents seen by two instances on PostgreSQL",
  () => {
    const { database, servers } = usePostgresServers("lease_uploads");

    it("serves through one instance the bytes uploaded through the other", async () => {
      // One after the other: the first runs the migrations.
      for (let i = 0; i < 2; i++) {
        servers.push(
          await startServer({
            port: await findFreePort(),
            databaseUrl: database.url,
            env: serverEnv(),
          }).ready(),
        );
      }
      const [a, b] = servers;
      const file = await acceptedLeaseQuote(a.base, "deux-instances@example.fr");
      const document = pdfOfSize(256 * 1024);
      const uploaded = await postDocuments(file, [{ name: "bilan 2025.pdf", data: document }]);
      expect(uploaded.status).toBe(303);

      const cookie = await signInOverHttp(b.base, ADMIN);
      const desk = await pageText(b.base, `/admin/contacts/${file.requestId}`, cookie);
      const link = new RegExp(`/admin/contacts/${file.requestId}/documents/\\d+`).exec(desk)?.[0];
      expect(link, "the download link on instance B").toBeDefined();
      const download = await get(b.base, link!, cookie);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toMatch(/^attachment;/);
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(document));
      expect(desk).toContain(sha256(document));
    });
  },
);
