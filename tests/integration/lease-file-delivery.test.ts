import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import * as quoteRoute from "../../app/routes/public/quote";
import * as requestPage from "../../app/routes/admin/contact-request";
import * as leasePage from "../../app/routes/admin/lease";
import * as reportRoute from "../../app/routes/resources/delivery-report-pdf";
import * as signedRoute from "../../app/routes/resources/admin-signed-document-pdf";
import {
  auditJournal,
  contactRequests,
  contactStatusChanges,
  leaseFiles,
  signedDocuments,
} from "../../app/platform/schema.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { accountWithRole, completeLeaseFile, SITE } from "../support/lease-file";
import { startTestSmtpServer, testMailSettings, type TestSmtpServer } from "../support/smtp";

// The LOA file after its documents (issue 41), second half: the equipment delivered entered by
// the team, the `PV de livraison` signed once by the buyer from the quote's link and kept byte for
// byte, the request `Livré` and its owner told; and the financer's mail of an archive too large to
// attach (the limit lowered here) saying so.
vi.hoisted(() => {
  process.env.SITE_URL = "http://www.example.fr";
  process.env.LEASE_ARCHIVE_MAIL_MAX_BYTES = "2000";
});

const { database, signedInAdmin } = useAdminSuite();
let smtp: TestSmtpServer;
let worker: MailWorker | undefined;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const ITEMS = {
  label0: "Serveur HPE ProLiant DL380 Gen10 Plus",
  serial0: "CZJ2150ABC",
  label1: "Onduleur APC Smart-UPS 1500",
  serial1: "AS2231012345",
};

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});

describe(`LOA file: the delivery (${testDatabaseKind})`, () => {
  let actor: { id: number; email: string; role: "admin" };
  let cookie: string;
  let file: Awaited<ReturnType<typeof completeLeaseFile>>;
  let self: string;

  const post = (form: Record<string, string>, as = cookie) =>
    call(requestPage.action, makeRequest(self, { cookie: as, form }), testContext, {
      id: String(file.requestId),
    });
  const sign = (form: Record<string, string>, userAgent = "Firefox de test") =>
    call(
      quoteRoute.action,
      new Request(`${SITE}/devis/${file.token}`, {
        method: "POST",
        headers: { origin: SITE, "user-agent": userAgent },
        body: new URLSearchParams({ intent: "delivery-report", ...form }),
      }),
      testContext,
      { token: file.token },
    );
  const buyerPage = async () =>
    (
      await call(quoteRoute.loader, makeRequest(`/devis/${file.token}`), testContext, {
        token: file.token,
      })
    ).data as { delivery: { version: string; items: unknown[]; signed: unknown } | null };
  const statusOf = async () =>
    (
      await database.db
        .select({ status: contactRequests.status })
        .from(contactRequests)
        .where(eq(contactRequests.id, file.requestId))
    )[0].status;

  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
    smtp.mails.length = 0;
    const signed = await signedInAdmin();
    actor = { id: signed.admin.id, email: signed.admin.email, role: "admin" };
    cookie = signed.cookie;
    file = await completeLeaseFile(database.db, actor);
    self = `/admin/contacts/${file.requestId}`;
  });

  /** Sent to the financer (`dossiers@…`) and approved. */
  async function approved() {
    const financer = {
      intent: "financer",
      financerName: "Leasecom Test",
      financerEmail: "dossiers@financeur.example",
    };
    expect(
      (await call(leasePage.action, makeRequest("/admin/lease", { cookie, form: financer })))
        .status,
    ).toBe(302);
    expect((await post({ intent: "lease-hand-off", confirm: "yes" })).status).toBe(302);
    const answer = { intent: "financer-answer", answer: "approved", answeredOn: "2026-01-05" };
    expect((await post(answer)).status).toBe(302);
  }

  it("takes the delivered equipment after the agreement, 1 to 20 lines each with its serial number", async () => {
    // Before the financer's agreement: refused.
    const early = await post({ intent: "delivery-items", ...ITEMS });
    expect(early.status).toBe(409);
    expect(JSON.stringify(early.data)).toContain("après l'accord du financeur");
    await approved();
    expect(await buyerPage()).toMatchObject({ delivery: null });

    const none = await post({ intent: "delivery-items" });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.data)).toContain("Indiquez au moins un matériel livré");
    const halfLine = await post({ intent: "delivery-items", label0: "Serveur", serial0: "" });
    expect(halfLine.status).toBe(400);
    expect(JSON.stringify(halfLine.data)).toContain("numéro de série de la ligne 1");
    const catalogue = await accountWithRole(database.db, "catalogue");
    expect((await post({ intent: "delivery-items", ...ITEMS }, catalogue.cookie)).status).toBe(403);

    // A line past the twentieth is not read; blank lines between are skipped.
    const sales = await accountWithRole(database.db, "sales");
    const saved = await post(
      {
        intent: "delivery-items",
        ...ITEMS,
        label5: "",
        serial5: "",
        label20: "Ignoré",
        serial20: "X",
      },
      sales.cookie,
    );
    expect(saved.status).toBe(302);
    const [row] = await database.db
      .select()
      .from(leaseFiles)
      .where(eq(leaseFiles.contactRequestId, file.requestId));
    expect(row.deliveredItems).toEqual([
      { label: ITEMS.label0, serial: ITEMS.serial0 },
      { label: ITEMS.label1, serial: ITEMS.serial1 },
    ]);
    expect(row.deliveryEnteredAt).toBeInstanceOf(Date);
    const page = await buyerPage();
    expect(page.delivery?.items).toHaveLength(2);
    expect(page.delivery?.signed).toBeNull();
    expect((await database.db.select().from(auditJournal)).map((r) => r.action)).toContain(
      "delivery-items-entered",
    );
  });

  it("has the PV de livraison signed once by the buyer, kept byte for byte; the request is Livré", async () => {
    await approved();
    expect((await post({ intent: "delivery-items", ...ITEMS })).status).toBe(302);
    const { version } = (await buyerPage()).delivery!;
    const signer = { name: "Jeanne Achat", role: "Gérante", version };

    // The box is required (the server checks it again), and a stale page is refused.
    const unticked = await sign(signer);
    expect(unticked.status).toBe(400);
    expect(JSON.stringify(unticked.data)).toContain("bon état de fonctionnement");
    const stale = await sign({ ...signer, received: "on", version: "2000-01-01T00:00:00.000Z" });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.data)).toContain("a été modifié");
    expect(
      await database.db
        .select()
        .from(signedDocuments)
        .where(eq(signedDocuments.kind, "delivery_report")),
    ).toHaveLength(0);

    const signed = await sign({ ...signer, received: "on" });
    expect(signed.status).toBe(303);
    expect(signed.location).toBe(`/devis/${file.token}#livraison`);
    expect(await statusOf()).toBe("delivered");
    const reports = await database.db
      .select()
      .from(signedDocuments)
      .where(eq(signedDocuments.kind, "delivery_report"));
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report).toMatchObject({
      reference: `PV-${file.number}`,
      contactRequestId: file.requestId,
      fileName: `pv-livraison-${file.number}.pdf`,
      partyEmail: "jeanne@example.fr",
    });
    expect(report.acceptance).toMatchObject({
      name: "Jeanne Achat",
      role: "Gérante",
      ip: testContext.clientIp,
      userAgent: "Firefox de test",
    });
    expect(report.party).toMatchObject({ company: "ACME SAS", siren: "732829320" });
    expect(report.seller.legalName).toBeTruthy();
    expect(report.pdfSha256).toBe(sha256(report.pdf));
    expect(report.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const history = await database.db
      .select({
        from: contactStatusChanges.fromStatus,
        to: contactStatusChanges.toStatus,
        by: contactStatusChanges.authorEmail,
      })
      .from(contactStatusChanges)
      .where(eq(contactStatusChanges.contactRequestId, file.requestId))
      .orderBy(contactStatusChanges.id);
    expect(history.at(-1)).toEqual({
      from: "financer_approved",
      to: "delivered",
      by: "jeanne@example.fr",
    });
    const [row] = await database.db
      .select()
      .from(leaseFiles)
      .where(eq(leaseFiles.contactRequestId, file.requestId));
    expect(row.deliverySignedAt?.getTime()).toBe(report.signedAt.getTime());

    // Once: a second signature is refused, and nothing else is kept.
    const second = await sign({ ...signer, name: "Quelqu'un d'autre", received: "on" });
    expect(second.status).toBe(409);
    expect(JSON.stringify(second.data)).toContain("déjà signé");
    expect(
      await database.db
        .select()
        .from(signedDocuments)
        .where(eq(signedDocuments.kind, "delivery_report")),
    ).toHaveLength(1);
    // The equipment can no longer change.
    expect((await post({ intent: "delivery-items", ...ITEMS })).status).toBe(409);

    // The buyer's page says it is signed, and its link serves the bytes kept.
    const page = await buyerPage();
    expect(page.delivery?.signed).toMatchObject({ name: "Jeanne Achat", sha256: report.pdfSha256 });
    const buyerPdf = (await reportRoute.loader({
      request: makeRequest(`/devis/${file.token}/pv-de-livraison.pdf`),
      params: { token: file.token },
      context: testContext,
    } as never)) as Response;
    expect(buyerPdf.status).toBe(200);
    expect(sha256(new Uint8Array(await buyerPdf.arrayBuffer()))).toBe(report.pdfSha256);
    // The team's download from the request page: a Commercial too, not Catalogue.
    const sales = await accountWithRole(database.db, "sales");
    const teamPdf = (await signedRoute.loader({
      request: makeRequest(`/admin/signed-documents/${report.id}/pdf`, { cookie: sales.cookie }),
      params: { id: String(report.id) },
      context: testContext,
    } as never)) as Response;
    expect(teamPdf.status).toBe(200);
    expect(sha256(new Uint8Array(await teamPdf.arrayBuffer()))).toBe(report.pdfSha256);
    const catalogue = await accountWithRole(database.db, "catalogue");
    const refused = await call(
      signedRoute.loader,
      makeRequest(`/admin/signed-documents/${report.id}/pdf`, { cookie: catalogue.cookie }),
      testContext,
      { id: String(report.id) },
    );
    expect(refused.status).toBe(403);
    const requestView = await call(requestPage.loader, makeRequest(self, { cookie }), testContext, {
      id: String(file.requestId),
    });
    expect(JSON.stringify(requestView.data)).toContain(`"deliveryReport":{"id":${report.id}`);

    // The owner (nobody: the team) is told; the financer's archive was too large to attach.
    worker = startMailWorker(database, testMailSettings(smtp), mailRenderers, { pollMs: 200 });
    await expect
      .poll(() => smtp.mails.map((m) => m.parsed.subject ?? ""), { timeout: 20_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/^PV de livraison signé : DEM-/)]));
    await expect
      .poll(
        () => smtp.mails.filter((m) => m.envelope.to.includes("dossiers@financeur.example")).length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    const told = smtp.mails.find((m) => /^PV de livraison signé/.test(m.parsed.subject ?? ""))!;
    expect(told.envelope.to).toEqual(["ventes@example.fr"]);
    expect(told.parsed.text).toContain("Jeanne Achat (Gérante)");
    const financer = smtp.mails.find((m) => m.envelope.to.includes("dossiers@financeur.example"))!;
    expect(financer.parsed.attachments).toHaveLength(0);
    expect(financer.parsed.text).toContain("dépasse la taille qu'un e-mail peut porter");
  });
});
