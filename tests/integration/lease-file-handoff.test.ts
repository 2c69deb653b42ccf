import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startMailWorker, type MailWorker } from "../../app/features/mail/mail.server";
import { mailRenderers } from "../../app/mail-kinds.server";
import { readLeaseFinancer } from "../../app/features/lease-file/lease-settings.server";
import * as leasePage from "../../app/routes/admin/lease";
import * as requestPage from "../../app/routes/admin/contact-request";
import * as archiveRoute from "../../app/routes/resources/admin-lease-archive[.]zip";
import {
  auditJournal,
  contactRequests,
  contactStatusChanges,
  leaseDocumentKinds,
  leaseFiles,
  mailOutbox,
  signedDocuments,
} from "../../app/platform/schema.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { accountWithRole, BUYER, completeLeaseFile, LEASE } from "../support/lease-file";
import { startTestSmtpServer, testMailSettings, type TestSmtpServer } from "../support/smtp";

// The LOA file after its documents (issue 41), first half: `Barème LOA`'s financer and documents,
// then `Transmettre au financeur` from the request's page, the archive opened by the test (the
// signed quote's exact bytes, the documents, the summary in the financer's terms), mailed to the
// financer through a real SMTP server on loopback, and the financer's answer.
vi.hoisted(() => {
  process.env.SITE_URL = "http://www.example.fr";
});

const { database, signedInAdmin } = useAdminSuite();
let smtp: TestSmtpServer;
let worker: MailWorker | undefined;

const FINANCER = { financerName: "Leasecom Test", financerEmail: "dossiers@financeur.example" };
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The four documents the migration lists, as every test starts (the list is not truncated). */
async function resetDocumentKinds() {
  await database.db.delete(leaseDocumentKinds);
  await database.db.insert(leaseDocumentKinds).values([
    {
      title: "Extrait Kbis de moins de trois mois",
      purpose: "Existence de la société.",
      position: 1,
    },
    { title: "Pièce d'identité du dirigeant", purpose: "Identité du dirigeant.", position: 2 },
    { title: "RIB de la société", purpose: "Prélèvement des loyers.", position: 3 },
    { title: "Dernière liasse fiscale ou dernier bilan", purpose: "Solvabilité.", position: 4 },
  ]);
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});

describe(`LOA file: the financer (${testDatabaseKind})`, () => {
  let actor: { id: number; email: string; role: "admin" };
  let cookie: string;

  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
    smtp.mails.length = 0;
    await resetDocumentKinds();
    const signed = await signedInAdmin();
    actor = { id: signed.admin.id, email: signed.admin.email, role: "admin" };
    cookie = signed.cookie;
  });

  const post = (path: string, form: Record<string, string>, as = cookie) =>
    call(
      path === "/admin/lease" ? leasePage.action : requestPage.action,
      makeRequest(path, { cookie: as, form }),
      testContext,
      path === "/admin/lease" ? {} : { id: path.split("/").pop()! },
    );
  const statusOf = async (id: number) =>
    (
      await database.db
        .select({ status: contactRequests.status })
        .from(contactRequests)
        .where(eq(contactRequests.id, id))
    )[0].status;
  const journalActions = async () =>
    (await database.db.select().from(auditJournal)).map((row) => row.action);
  const kindTitles = async () =>
    (
      await database.db
        .select({ title: leaseDocumentKinds.title })
        .from(leaseDocumentKinds)
        .orderBy(asc(leaseDocumentKinds.position), asc(leaseDocumentKinds.id))
    ).map((kind) => kind.title);

  it("Barème LOA keeps the financer and the documents asked, an Administrateur's; open files follow the list", async () => {
    expect(await readLeaseFinancer(database.db)).toEqual({
      name: "Exemple Leasing SA",
      email: null,
    });
    const badAddress = await post("/admin/lease", {
      ...FINANCER,
      intent: "financer",
      financerEmail: "pas-une-adresse",
    });
    expect(badAddress.status).toBe(400);
    expect(JSON.stringify(badAddress.data)).toContain("Adresse e-mail du financeur non valide.");
    expect((await post("/admin/lease", { intent: "financer", ...FINANCER })).status).toBe(302);
    expect(await readLeaseFinancer(database.db)).toEqual({
      name: FINANCER.financerName,
      email: FINANCER.financerEmail,
    });

    // A Catalogue account opens the page (the scale is theirs) but neither sees nor changes these.
    const catalogue = await accountWithRole(database.db, "catalogue");
    const seen = await call(
      leasePage.loader,
      makeRequest("/admin/lease", { cookie: catalogue.cookie }),
    );
    expect(seen.status).toBe(200);
    expect((seen.data as { file: unknown }).file).toBeNull();
    const forged = await post(
      "/admin/lease",
      { intent: "financer", financerName: "Intrus", financerEmail: "intrus@example.fr" },
      catalogue.cookie,
    );
    expect(forged.status).toBe(403);
    expect((await readLeaseFinancer(database.db)).email).toBe(FINANCER.financerEmail);
    const forgedKind = await post(
      "/admin/lease",
      { intent: "kind-add", title: "Pièce forgée", purpose: "Forgée" },
      catalogue.cookie,
    );
    expect(forgedKind.status).toBe(403);

    // A complete file becomes incomplete when a document is added, complete again once removed.
    const file = await completeLeaseFile(database.db, actor);
    const added = await post("/admin/lease", {
      intent: "kind-add",
      title: "Attestation d'assurance",
      purpose: "Le matériel est assuré.",
    });
    expect(added.status).toBe(302);
    expect(await statusOf(file.requestId)).toBe("file_incomplete");
    const taken = await post("/admin/lease", {
      intent: "kind-add",
      title: "attestation D'ASSURANCE",
      purpose: "Doublon",
    });
    expect(taken.status).toBe(409);
    expect(JSON.stringify(taken.data)).toContain("Une pièce porte déjà ce nom.");
    const [insurance] = await database.db
      .select()
      .from(leaseDocumentKinds)
      .where(eq(leaseDocumentKinds.title, "Attestation d'assurance"));
    const renamed = await post("/admin/lease", {
      intent: "kind-update",
      id: String(insurance.id),
      title: "Attestation d'assurance du matériel",
      purpose: "Le matériel est assuré pendant la location.",
    });
    expect(renamed.status).toBe(302);
    expect(
      (
        await post("/admin/lease", {
          intent: "kind-move",
          id: String(insurance.id),
          direction: "up",
        })
      ).status,
    ).toBe(302);
    expect((await kindTitles()).slice(3)).toEqual([
      "Attestation d'assurance du matériel",
      "Dernière liasse fiscale ou dernier bilan",
    ]);
    // `Supprimer` asks first; confirmed, the file no longer waits for it.
    const asked = await post("/admin/lease", { intent: "kind-remove", id: String(insurance.id) });
    expect(asked.status).toBe(302);
    expect(asked.location).toBe(`/admin/lease?remove=${insurance.id}`);
    expect(await kindTitles()).toHaveLength(5);
    const confirmPage = await call(
      leasePage.loader,
      makeRequest(`/admin/lease?remove=${insurance.id}`, { cookie }),
    );
    expect(JSON.stringify(confirmPage.data)).toContain("Attestation d'assurance du matériel");
    const removed = await post("/admin/lease", {
      intent: "kind-remove",
      id: String(insurance.id),
      confirm: "yes",
    });
    expect(removed.status).toBe(302);
    expect(await kindTitles()).toHaveLength(4);
    expect(await statusOf(file.requestId)).toBe("file_complete");
    expect(await journalActions()).toEqual(
      expect.arrayContaining([
        "lease-financer-changed",
        "lease-document-kind-added",
        "lease-document-kind-updated",
        "lease-document-kind-moved",
        "lease-document-kind-removed",
      ]),
    );
  });

  it("hands a complete file to the financer once, after a confirmation; its archive holds the signed quote's bytes, the documents and the summary", async () => {
    expect((await post("/admin/lease", { intent: "financer", ...FINANCER })).status).toBe(302);
    const file = await completeLeaseFile(database.db, actor);
    const self = `/admin/contacts/${file.requestId}`;

    // A bare post is the question; Catalogue is refused.
    const asked = await post(self, { intent: "lease-hand-off" });
    expect(asked.status).toBe(302);
    expect(asked.location).toBe(`${self}?transmettre=1#transmission`);
    const catalogue = await accountWithRole(database.db, "catalogue");
    expect(
      (await post(self, { intent: "lease-hand-off", confirm: "yes" }, catalogue.cookie)).status,
    ).toBe(403);
    expect(await statusOf(file.requestId)).toBe("file_complete");

    const sent = await post(self, { intent: "lease-hand-off", confirm: "yes" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("set-cookie")).toContain("flash=leaseFileSent");
    expect(await statusOf(file.requestId)).toBe("file_sent");
    const [row] = await database.db
      .select()
      .from(leaseFiles)
      .where(eq(leaseFiles.contactRequestId, file.requestId));
    expect(row.financerSentAt).toBeInstanceOf(Date);
    expect(row.financerSentById).toBe(actor.id);
    expect(row.financerSentTo).toBe(FINANCER.financerEmail);
    const history = await database.db
      .select({ from: contactStatusChanges.fromStatus, to: contactStatusChanges.toStatus })
      .from(contactStatusChanges)
      .where(eq(contactStatusChanges.contactRequestId, file.requestId))
      .orderBy(contactStatusChanges.id);
    expect(history.at(-1)).toEqual({ from: "file_complete", to: "file_sent" });
    expect(await journalActions()).toContain("lease-file-sent");
    // Once: a second hand-off is refused with the status it found.
    const again = await post(self, { intent: "lease-hand-off", confirm: "yes" });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.data)).toContain("Transmis au financeur");
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "lease_file_financer")),
    ).toHaveLength(1);

    // The archive, downloaded from the request's page (journaled), opened here.
    const response = (await archiveRoute.loader({
      request: makeRequest(`${self}/dossier.zip`, { cookie }),
      params: { id: String(file.requestId) },
      context: testContext,
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="dossier-loa-DEM-\d{4}-\d+\.zip"/,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const zip = new Uint8Array(await response.arrayBuffer());
    const entries = unzipSync(zip);
    const [signedQuote] = await database.db
      .select()
      .from(signedDocuments)
      .where(eq(signedDocuments.kind, "quote"));
    const quotePdf = entries[`devis-signe-${file.number}.pdf`];
    expect(sha256(quotePdf)).toBe(signedQuote.pdfSha256);
    expect(Buffer.from(quotePdf).equals(signedQuote.pdf)).toBe(true);
    const summary = JSON.parse(new TextDecoder().decode(entries["synthese.json"]));
    expect(summary.customer).toEqual({
      siren: BUYER.siren,
      company: BUYER.company,
      email: BUYER.email,
      manager: { name: BUYER.name, role: "Gérante" },
    });
    expect(summary.lease).toEqual({
      currency: "EUR",
      amountFinancedHt: LEASE.financed,
      durationMonths: LEASE.months,
      coefficient: LEASE.coefficient,
      monthlyRentHt: LEASE.rent,
      purchaseOptionHt: LEASE.option,
      totalCostHt: "14937.00",
      setupFeeHt: "0.00",
    });
    expect(summary.equipment[0]).toEqual({ label: "LOA Xeon 36 mois", value: "Référence LOA-36" });
    expect(summary.quote).toMatchObject({ number: file.number, sha256: signedQuote.pdfSha256 });
    expect(summary.financer).toBe(FINANCER.financerName);
    // Each document under its kind, byte for byte, with its SHA-256 in the summary.
    expect(summary.documents).toHaveLength(file.documents.length);
    for (const [i, document] of file.documents.entries()) {
      const listed = summary.documents[i];
      expect(listed.kind).toBe(document.kind.title);
      expect(listed.file).toMatch(/^pieces\/[a-z0-9-]+--[a-z0-9-]+\.pdf$/);
      expect(Buffer.from(entries[listed.file]).equals(document.data)).toBe(true);
      expect(listed.sha256).toBe(sha256(document.data));
    }
    expect(Buffer.from(entries["synthese.pdf"]).subarray(0, 5).toString()).toBe("%PDF-");
    expect(Object.keys(entries).sort()).toEqual(
      [
        `devis-signe-${file.number}.pdf`,
        "synthese.json",
        "synthese.pdf",
        ...summary.documents.map((d: { file: string }) => d.file),
      ].sort(),
    );
    expect(await journalActions()).toContain("lease-file-downloaded");
    // Catalogue may not take it.
    const refused = await call(
      archiveRoute.loader,
      makeRequest(`${self}/dossier.zip`, { cookie: catalogue.cookie }),
      testContext,
      { id: String(file.requestId) },
    );
    expect(refused.status).toBe(403);

    // The financer's mail, as it leaves: the same archive attached, byte for byte.
    worker = startMailWorker(database, testMailSettings(smtp), mailRenderers, { pollMs: 200 });
    await expect
      .poll(() => smtp.mails.filter((m) => m.envelope.to.includes(FINANCER.financerEmail)).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const mail = smtp.mails.find((m) => m.envelope.to.includes(FINANCER.financerEmail))!;
    expect(mail.parsed.subject).toBe(
      `Dossier de financement LOA : ACME SAS (SIREN 732 829 320), devis ${file.number}`,
    );
    expect(mail.parsed.text).toContain("montant financé 13");
    expect(mail.parsed.attachments).toHaveLength(1);
    const [attachment] = mail.parsed.attachments;
    expect(attachment.mimeType).toBe("application/zip");
    const attached = new Uint8Array(attachment.content as ArrayBuffer);
    expect(sha256(attached)).toBe(sha256(zip));
  });

  it("records the financer's answer once the file is sent: Accord, its date and reference", async () => {
    const file = await completeLeaseFile(database.db, actor);
    const self = `/admin/contacts/${file.requestId}`;
    const answer = { intent: "financer-answer", answer: "approved", answeredOn: "2026-01-05" };
    // Not sent yet: refused.
    expect((await post(self, answer)).status).toBe(409);
    // No address set: marked sent, nothing mailed, the team downloads the archive.
    const sent = await post(self, { intent: "lease-hand-off", confirm: "yes" });
    expect(sent.headers.get("set-cookie")).toContain("flash=leaseFileSentNoMail");
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "lease_file_financer")),
    ).toHaveLength(0);

    const sales = await accountWithRole(database.db, "sales");
    const catalogue = await accountWithRole(database.db, "catalogue");
    expect((await post(self, answer, catalogue.cookie)).status).toBe(403);
    const undated = await post(self, { ...answer, answeredOn: "" }, sales.cookie);
    expect(undated.status).toBe(400);
    expect(JSON.stringify(undated.data)).toContain("Indiquez la date de la réponse");
    const unanswered = await post(self, { ...answer, answer: "" }, sales.cookie);
    expect(JSON.stringify(unanswered.data)).toContain("Choisissez Accord ou Refus.");
    const future = await post(self, { ...answer, answeredOn: "2999-01-01" }, sales.cookie);
    expect(JSON.stringify(future.data)).toContain("ne peut pas être dans le futur");
    expect(await statusOf(file.requestId)).toBe("file_sent");

    const recorded = await post(self, { ...answer, reference: "LC-2026-0042" }, sales.cookie);
    expect(recorded.status).toBe(302);
    expect(await statusOf(file.requestId)).toBe("financer_approved");
    const [row] = await database.db
      .select()
      .from(leaseFiles)
      .where(eq(leaseFiles.contactRequestId, file.requestId));
    expect(row).toMatchObject({
      financerAnswer: "approved",
      financerAnsweredOn: "2026-01-05",
      financerReference: "LC-2026-0042",
      financerRecordedById: sales.user.id,
    });
    expect(await journalActions()).toContain("financer-answer-recorded");
    // Once: another answer is refused.
    expect((await post(self, { ...answer, answer: "refused" })).status).toBe(409);
    const page = await call(requestPage.loader, makeRequest(self, { cookie }), testContext, {
      id: String(file.requestId),
    });
    expect(JSON.stringify(page.data)).toContain("LC-2026-0042");
  });
});
