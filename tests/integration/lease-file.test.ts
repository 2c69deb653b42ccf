import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { answerQuote } from "../../app/features/quotes/quote-answer.server";
import { drawQuoteLink, sendQuote } from "../../app/features/quotes/quote-sending.server";
import { leaseFileOf } from "../../app/features/lease-file/lease-file.server";
import { queueMissingDocumentReminders } from "../../app/features/lease-file/lease-file-mail.server";
import { setClock } from "../../app/platform/clock.server";
import {
  erasePersonalData,
  findPersonalData,
} from "../../app/features/privacy/personal-data.server";
import { personalDataDocument } from "../../app/features/privacy/personal-data-document.server";
import * as quoteRoute from "../../app/routes/public/quote";
import * as requestPage from "../../app/routes/admin/contact-request";
import * as documentRoute from "../../app/routes/resources/admin-lease-document";
import {
  contactRequests,
  contactStatusChanges,
  leaseDocumentKinds,
  leaseDocuments,
  leaseFiles,
  mailOutbox,
  quotes,
} from "../../app/platform/schema.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { buildOffer, insertOffers } from "../support/offers";
import { bombPdf, htmlPdfPolyglot, pdfBytes, peExecutable } from "../support/lease-documents";

// The LOA file after the quote's acceptance (issue 41): the documents posted as a browser posts
// them (multipart) to the quote's page, checked by their bytes, stored once with their SHA-256,
// refused by the salesperson and sent again, and the request's status following.
vi.hoisted(() => {
  process.env.SITE_URL = "http://www.example.fr";
  process.env.LEASE_DOCUMENT_MAX_BYTES = String(1024 * 1024);
});

const { database, signedInAdmin, sessionCookieFor } = useAdminSuite();

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

describe(`LOA file (${testDatabaseKind})`, () => {
  let requestId: number;
  let token: string;
  let actor: { id: number; email: string; role: "admin" };
  let kinds: { id: number; title: string }[];

  beforeEach(async () => {
    const { admin } = await signedInAdmin();
    actor = { id: admin.id, email: admin.email, role: "admin" };
    const [{ id: offerId }] = await insertOffers(database.db, [
      buildOffer(1, { title: "LOA Xeon", reference: "LOA-1", type: "loa", price: "100.00" }),
    ]);
    ({ id: requestId } = await createContactRequest(
      {
        name: "Jeanne Achat",
        email: "jeanne@example.fr",
        phone: null,
        message: "Une LOA",
        offer: offerId,
        company: "ACME SAS",
        siren: "732829320",
      },
      database.db,
    ));
    await sendQuote(requestId, { validityDays: 30, discounts: [] }, actor, database.db);
    const [quote] = await database.db.select().from(quotes);
    token = (await drawQuoteLink(quote.id, database.db))!.token;
    const accepted = await answerQuote(
      token,
      { kind: "accept", name: "Jeanne Achat", role: "Gérante" },
      { ip: "203.0.113.7", userAgent: "Vitest" },
      database.db,
    );
    expect(accepted.kind).toBe("accepted");
    kinds = await database.db
      .select({ id: leaseDocumentKinds.id, title: leaseDocumentKinds.title })
      .from(leaseDocumentKinds)
      .orderBy(leaseDocumentKinds.position);
  });

  const upload = (
    kind: number | string,
    files: { name: string; data: Buffer; type?: string }[],
  ) => {
    const form = new FormData();
    form.set("intent", "documents");
    form.set("kind", String(kind));
    for (const file of files) {
      form.append(
        "document",
        new Blob([new Uint8Array(file.data)], { type: file.type ?? "application/pdf" }),
        file.name,
      );
    }
    const request = new Request(`http://www.example.fr/devis/${token}`, {
      method: "POST",
      headers: { origin: "http://www.example.fr" },
      body: form,
    });
    return call(quoteRoute.action, request, testContext, { token });
  };
  const statusOf = async () =>
    (
      await database.db
        .select({ status: contactRequests.status })
        .from(contactRequests)
        .where(eq(contactRequests.id, requestId))
    )[0].status;
  const stored = async () => database.db.select().from(leaseDocuments);

  it("opens the file at the acceptance of an LOA quote: the four documents financers ask, all missing", async () => {
    expect(await statusOf()).toBe("file_incomplete");
    const history = await database.db
      .select({ from: contactStatusChanges.fromStatus, to: contactStatusChanges.toStatus })
      .from(contactStatusChanges)
      .where(eq(contactStatusChanges.contactRequestId, requestId))
      .orderBy(contactStatusChanges.id);
    expect(history.slice(-2)).toEqual([
      { from: "quote_sent", to: "accepted" },
      { from: "accepted", to: "file_incomplete" },
    ]);
    const file = (await leaseFileOf(requestId, database.db))!;
    expect(file.items.map((item) => item.state)).toEqual([
      "missing",
      "missing",
      "missing",
      "missing",
    ]);
    expect(file.missing[0]).toBe("Extrait Kbis de moins de trois mois");
    const page = await call(quoteRoute.loader, makeRequest(`/devis/${token}`), testContext, {
      token,
    });
    expect(JSON.stringify(page.data)).toContain("Extrait Kbis de moins de trois mois");
  });

  it("keeps each document once with its SHA-256; complete, the owner is told; a refusal reopens it", async () => {
    const first = await upload(kinds[0].id, [{ name: "kbis.pdf", data: pdfBytes() }]);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/devis/${token}?document=recu#dossier`);
    const [kbis] = await stored();
    expect(kbis).toMatchObject({
      kindTitle: kinds[0].title,
      contentType: "application/pdf",
      fileName: "kbis.pdf",
    });
    expect(kbis.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await statusOf()).toBe("file_incomplete");

    // The identity card's two sides in one post, a RIB named without extension, a bilan.
    expect(
      (
        await upload(kinds[1].id, [
          { name: "recto.png", data: PNG, type: "image/png" },
          { name: "verso.png", data: PNG, type: "image/png" },
        ])
      ).status,
    ).toBe(303);
    expect(
      (await upload(kinds[2].id, [{ name: "RIB", data: pdfBytes("RIB"), type: "" }])).status,
    ).toBe(303);
    expect(
      (await upload(kinds[3].id, [{ name: "bilan 2025.pdf", data: pdfBytes("Bilan") }])).status,
    ).toBe(303);
    expect(await statusOf()).toBe("file_complete");
    expect((await stored()).map((d) => d.fileName).sort()).toEqual(
      ["RIB.pdf", "bilan 2025.pdf", "kbis.pdf", "recto.png", "verso.png"].sort(),
    );
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "lease_file_complete")),
    ).toHaveLength(1);

    // The salesperson refuses the Kbis (too old): incomplete again, the reason on the buyer's page.
    const cookie = await sessionCookieFor(actor.id);
    const refused = await call(
      requestPage.action,
      makeRequest(`/admin/contacts/${requestId}`, {
        cookie,
        form: {
          intent: "document-refuse",
          documentId: String(kbis.id),
          reason: "Kbis de plus de trois mois",
        },
      }),
      testContext,
      { id: String(requestId) },
    );
    expect(refused.status).toBe(302);
    expect(await statusOf()).toBe("file_incomplete");
    const page = await call(quoteRoute.loader, makeRequest(`/devis/${token}`), testContext, {
      token,
    });
    expect(JSON.stringify(page.data)).toContain("Kbis de plus de trois mois");

    // Sent again: complete again, and the owner told again.
    expect(
      (await upload(kinds[0].id, [{ name: "kbis-2.pdf", data: pdfBytes("Kbis récent") }])).status,
    ).toBe(303);
    expect(await statusOf()).toBe("file_complete");
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "lease_file_complete")),
    ).toHaveLength(2);

    // The team downloads it as an attachment, never shown inline; the journal says who.
    const download = await call(
      documentRoute.loader,
      makeRequest(`/admin/contacts/${requestId}/documents/${kbis.id}`, { cookie }),
      testContext,
      { id: String(requestId), documentId: String(kbis.id) },
    );
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-security-policy")).toContain("sandbox");
    // Another request's id with this document: not found.
    const elsewhere = await call(
      documentRoute.loader,
      makeRequest(`/admin/contacts/${requestId + 1}/documents/${kbis.id}`, { cookie }),
      testContext,
      { id: String(requestId + 1), documentId: String(kbis.id) },
    );
    expect(elsewhere.status).toBe(404);
    // Signed out: the sign-in page, not the file.
    const anonymous = await call(
      documentRoute.loader,
      makeRequest(`/admin/contacts/${requestId}/documents/${kbis.id}`),
      testContext,
      { id: String(requestId), documentId: String(kbis.id) },
    );
    expect(anonymous.status).not.toBe(200);
  });

  it("refuses hostile uploads with a 4xx and a French message, storing nothing", async () => {
    const exe = peExecutable();
    const polyglot = htmlPdfPolyglot();
    const cases: [string, Awaited<ReturnType<typeof upload>>, RegExp][] = [
      [
        "executable named kbis.pdf",
        await upload(kinds[0].id, [{ name: "kbis.pdf", data: exe }]),
        /ni un PDF, ni une image/,
      ],
      [
        "HTML/PDF polyglot",
        await upload(kinds[0].id, [{ name: "kbis.pdf", data: polyglot }]),
        /code de page web/,
      ],
      [
        "compression bomb",
        await upload(kinds[0].id, [{ name: "bilan.pdf", data: await bombPdf(300) }]),
        /volume démesuré/,
      ],
      [
        "over the size limit",
        await upload(kinds[0].id, [
          { name: "gros.pdf", data: Buffer.concat([pdfBytes(), Buffer.alloc(1024 * 1024)]) },
        ]),
        /trop volumineux/i,
      ],
      [
        "30 files at once",
        await upload(
          kinds[0].id,
          Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.pdf`, data: pdfBytes() })),
        ),
        /Trop de fichiers/,
      ],
      [
        "a cut PDF",
        await upload(kinds[0].id, [{ name: "coupé.pdf", data: pdfBytes().subarray(0, 40) }]),
        /pas un PDF complet/,
      ],
      ["no file", await upload(kinds[0].id, []), /Choisissez un fichier/],
      [
        "an unknown document",
        await upload(999_999, [{ name: "kbis.pdf", data: pdfBytes() }]),
        /plus demandé/,
      ],
    ];
    for (const [name, outcome, message] of cases) {
      expect(outcome.status, name).toBeGreaterThanOrEqual(400);
      expect(outcome.status, name).toBeLessThan(500);
      expect(JSON.stringify(outcome.data), name).toMatch(message);
    }
    expect(await stored()).toHaveLength(0);
    expect(await statusOf()).toBe("file_incomplete");
  });

  it("gives the documents back in the export and erases them with the request, the signed quote kept", async () => {
    expect((await upload(kinds[2].id, [{ name: "rib.pdf", data: pdfBytes("RIB") }])).status).toBe(
      303,
    );
    const found = await findPersonalData("jeanne@example.fr", database.db);
    expect(found.counts.documents).toBe(1);
    const exported = personalDataDocument("jeanne@example.fr", found, {
      name: "ServeurPro",
      address: "",
      email: "contact@example.fr",
    });
    const [request] = exported.contactRequests;
    expect(request.leaseFile?.openedAt).toBeTruthy();
    expect(request.leaseDocuments).toHaveLength(1);
    expect(Buffer.from(request.leaseDocuments[0].contentBase64, "base64")).toEqual(pdfBytes("RIB"));
    expect(request.leaseDocuments[0].document).toBe(kinds[2].title);

    const erased = await erasePersonalData(
      "jeanne@example.fr",
      { context: testContext, actor: { id: actor.id, email: actor.email } },
      database.db,
    );
    expect(erased.counts.documents).toBe(1);
    expect(erased.kept).toHaveLength(1);
    expect(await stored()).toHaveLength(0);
    expect(await leaseFileOf(requestId, database.db)).toBeUndefined();
  });

  it("refuses a 41st document in one file", async () => {
    const four = Array.from({ length: 4 }, (_, i) => ({
      name: `p${i}.pdf`,
      data: pdfBytes(`${i}`),
    }));
    for (let i = 0; i < 10; i++) expect((await upload(kinds[3].id, four)).status).toBe(303);
    const refused = await upload(kinds[3].id, [{ name: "encore.pdf", data: pdfBytes() }]);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.data)).toContain("compte déjà 40 pièces");
    expect(await stored()).toHaveLength(40);
  });

  it("reminds the buyer of what is missing at most once a day, from the day after, until complete", async () => {
    const reminders = async () =>
      database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "lease_file_missing"));
    // The file opened on Monday 4 May 2026 at 10:00 in Paris.
    await database.db
      .update(leaseFiles)
      .set({ openedAt: new Date("2026-05-04T08:00:00Z") })
      .where(eq(leaseFiles.contactRequestId, requestId));
    try {
      // The same day: nothing. The next two mornings, once each, however many checks run.
      setClock(new Date("2026-05-04T16:00:00Z"));
      expect(await queueMissingDocumentReminders(undefined, database.db)).toBe(0);
      for (const at of ["2026-05-05T08:00:00Z", "2026-05-06T08:00:00Z"]) {
        setClock(new Date(at));
        await Promise.all([
          queueMissingDocumentReminders(undefined, database.db),
          queueMissingDocumentReminders(undefined, database.db),
        ]);
        await queueMissingDocumentReminders(undefined, database.db);
      }
      expect(await reminders()).toHaveLength(2);
      // Complete: no more reminders.
      for (const kind of kinds) {
        expect(
          (await upload(kind.id, [{ name: "piece.pdf", data: pdfBytes(kind.title) }])).status,
        ).toBe(303);
      }
      setClock(new Date("2026-05-07T08:00:00Z"));
      expect(await queueMissingDocumentReminders(undefined, database.db)).toBe(0);
      expect(await reminders()).toHaveLength(2);
    } finally {
      setClock(undefined);
    }
  });
});
