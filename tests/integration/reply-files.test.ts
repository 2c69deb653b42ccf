import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { conversationOf } from "../../app/features/conversation/conversation.server";
import { parseImapUrl, readMailbox } from "../../app/features/conversation/mailbox.server";
import {
  appState,
  requestMessageAttachments,
  requestMessages,
  users,
} from "../../app/platform/schema.server";
import * as attachmentRoute from "../../app/routes/resources/admin-message-attachment";
import * as htmlRoute from "../../app/routes/resources/admin-message-html";
import { findPersonalData } from "../../app/features/privacy/personal-data.server";
import { personalDataDocument } from "../../app/features/privacy/personal-data-document.server";
import { call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { testDatabaseKind } from "../support/database";
import { DOVECOT_PATH, startTestImapServer, type TestImapServer } from "../support/imap";
import {
  attachmentFixtures,
  FAKE_PDF,
  SMALL_PNG,
  smallPdf,
} from "../support/reply-attachment-fixtures";
import { requestAwaitingReply } from "../support/reply-suite";

// A reply's attachments and HTML (replies.test.ts: the replies themselves).
const imap = vi.hoisted(() => ({ server: undefined as TestImapServer | undefined }));
vi.hoisted(() => {
  process.env.REPLY_MAILBOX = "ventes@example.fr";
  process.env.SITE_URL = "http://www.example.fr";
});

const { database, signedInAdmin, sessionCookieFor } = useAdminSuite();

// Dovecot comes from scripts/system-deps.sh: CI always has it; a machine without it skips, and says so.
const noDovecot = !existsSync(DOVECOT_PATH) && !process.env.CI;
if (noDovecot) console.warn(`replies.test.ts skipped: no ${DOVECOT_PATH} (scripts/system-deps.sh)`);

beforeAll(async () => {
  if (!noDovecot) imap.server = await startTestImapServer();
});
afterAll(async () => {
  await imap.server?.stop();
});

describe.skipIf(noDovecot)(
  `a reply's files and HTML from the mailbox (${testDatabaseKind})`,
  () => {
    let requestId: number;
    let reference: string;
    let ours: string;
    let tagged: string;

    beforeEach(async () => {
      const { admin } = await signedInAdmin();
      ({ requestId, reference, ours, tagged } = await requestAwaitingReply(database.db, admin));
    });

    const settings = () => parseImapUrl(imap.server!.url, 60);
    const incoming = () =>
      database.db
        .select()
        .from(requestMessages)
        .where(eq(requestMessages.direction, "inbound"))
        .orderBy(asc(requestMessages.id));

    const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    const messageNamed = async (messageId: string) =>
      (await incoming()).find((row) => row.messageId === messageId)!;
    const filesOf = (id: number) =>
      database.db
        .select()
        .from(requestMessageAttachments)
        .where(eq(requestMessageAttachments.messageId, id))
        .orderBy(asc(requestMessageAttachments.id));
    /** A session of an account with that role. */
    const cookieAs = async (role: "sales" | "catalogue") => {
      const [user] = await database.db
        .insert(users)
        .values({ email: `${role}@example.fr`, passwordHash: "sans mot de passe", role })
        .returning({ id: users.id });
      return sessionCookieFor(user.id);
    };
    /** A resource route's answer as the browser gets it (its body too). */
    const load = (
      loader: (args: never) => unknown,
      path: string,
      params: object,
      cookie?: string,
    ) => loader({ request: makeRequest(path, { cookie }), params, context: testContext } as never);

    it("keeps a reply's files typed by their bytes, once, and says which it refused", async () => {
      const { thunderbird } = attachmentFixtures({
        reference,
        tagged,
        ours,
        buyer: "jeanne@example.fr",
      });
      const pdf = smallPdf();
      await imap.server!.append(thunderbird("tb-files", { pdf }));
      await readMailbox(settings(), database.db);
      const message = await messageNamed("<tb-files@example.fr>");
      expect(message.contactRequestId).toBe(requestId);
      const files = await filesOf(message.id);
      expect(files.map((f) => [f.filename, f.contentType, f.size, f.sha256])).toEqual([
        ["Bon de commande signé.pdf", "application/pdf", pdf.length, sha256(pdf)],
        ["capture.png", "image/png", SMALL_PNG.length, sha256(SMALL_PNG)],
      ]);
      expect(Buffer.from(files[0].data).equals(pdf)).toBe(true);
      // The program named `.pdf` (MZ) is refused, and the message says so after the buyer's words.
      expect(message.body).toMatch(
        /^Voici le bon de commande signé[\s\S]*\n\nPièce jointe non conservée : facture\.pdf \(type non accepté\)$/,
      );
      expect(message.html).toBeNull();

      // Another instance reading the same mailbox from the start stores nothing, files included.
      await database.db.delete(appState).where(like(appState.key, "mailbox:%"));
      expect((await readMailbox(settings(), database.db)).stored).toBe(0);
      expect(await filesOf(message.id)).toHaveLength(2);

      // The conversation lists them; the personal data export names them (not their bytes).
      const shown = (await conversationOf(requestId, database.db)).find(
        (m) => m.id === message.id,
      )!;
      expect(shown.attachments.map((a) => [a.filename, a.size])).toEqual([
        ["Bon de commande signé.pdf", pdf.length],
        ["capture.png", SMALL_PNG.length],
      ]);
      expect(shown.hasHtml).toBe(false);
      const document = personalDataDocument(
        "jeanne@example.fr",
        await findPersonalData("jeanne@example.fr", database.db),
        { name: "ServeurPro", address: "1 rue de l'Exemple", email: "contact@example.fr" },
      );
      const exported = document.contactRequests[0].messages.find((m) => m.attachments.length > 0)!;
      expect(exported.attachments).toEqual([
        {
          fileName: "Bon de commande signé.pdf",
          type: "application/pdf",
          bytes: pdf.length,
          sha256: sha256(pdf),
        },
        {
          fileName: "capture.png",
          type: "image/png",
          bytes: SMALL_PNG.length,
          sha256: sha256(SMALL_PNG),
        },
      ]);
      expect(JSON.stringify(document)).not.toContain(pdf.toString("base64").slice(0, 40));

      // Served to the sales team as a download, and to nobody else.
      const path = `/admin/messages/${message.id}/pieces/${files[0].id}`;
      const params = { messageId: String(message.id), attachmentId: String(files[0].id) };
      const sales = await cookieAs("sales");
      const download = (await load(attachmentRoute.loader, path, params, sales)) as Response;
      expect(download.status).toBe(200);
      expect(Object.fromEntries(download.headers)).toMatchObject({
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="Bon de commande signe.pdf"; filename*=UTF-8''Bon%20de%20commande%20sign%C3%A9.pdf`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, no-store",
      });
      expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
      const signedOut = await call(attachmentRoute.loader, makeRequest(path), testContext, params);
      expect(signedOut.status).toBe(302);
      expect(signedOut.location).toMatch(/^\/auth\?redirectTo=/);
      const catalogue = await cookieAs("catalogue");
      const refused = await call(
        attachmentRoute.loader,
        makeRequest(path, { cookie: catalogue }),
        testContext,
        params,
      );
      expect(refused.status).toBe(403);
      // A file asked under another message, or a malformed id: the French 404.
      for (const wrong of [
        { ...params, messageId: String(message.id + 1) },
        { ...params, attachmentId: "1e3" },
      ]) {
        const missing = (await load(attachmentRoute.loader, path, wrong, sales)) as Response;
        expect(missing.status).toBe(404);
        expect(await missing.text()).toContain("Cette pièce jointe n'existe pas");
      }
    });

    it("refuses a file over the limit and beyond ten, and keeps the others", async () => {
      const { thunderbird } = attachmentFixtures({
        reference,
        tagged,
        ours,
        buyer: "jeanne@example.fr",
      });
      const pdf = smallPdf();
      const large = smallPdf(400);
      const pngs = Array.from({ length: 9 }, (_, i) => ({
        name: `photo-${i + 1}.png`,
        type: "image/png",
        bytes: SMALL_PNG,
      }));
      await imap.server!.append(
        thunderbird("tb-limits", {
          pdf,
          extra: [{ name: "annexe.pdf", type: "application/pdf", bytes: large }, ...pngs],
        }),
      );
      await readMailbox({ ...settings(), attachmentMaxBytes: 2048 }, database.db);
      const message = await messageNamed("<tb-limits@example.fr>");
      const files = await filesOf(message.id);
      // The PDF, the capture and eight of the nine photos: ten.
      expect(files.map((f) => f.filename)).toEqual([
        "Bon de commande signé.pdf",
        "capture.png",
        ...pngs.slice(0, 8).map((p) => p.name),
      ]);
      expect(message.body.split("\n\n").at(-1)!.split("\n")).toEqual([
        "Pièce jointe non conservée : facture.pdf (type non accepté)",
        expect.stringMatching(
          /^Pièce jointe non conservée : annexe\.pdf \(trop volumineuse : 4,5\sko, 2\sko au plus\)$/,
        ),
        "Pièce jointe non conservée : photo-9.png (au-delà de 10 pièces jointes)",
      ]);
      expect(large.length).toBeGreaterThan(2048);
      expect(FAKE_PDF.subarray(0, 2).toString()).toBe("MZ");
    });

    it("keeps an HTML reply's text and its layout without script, tracker or remote content", async () => {
      const { outlookHtml } = attachmentFixtures({
        reference,
        tagged,
        ours,
        buyer: "jeanne@example.fr",
      });
      await imap.server!.append(outlookHtml);
      await readMailbox(settings(), database.db);
      const message = await messageNamed(
        "<AM0PR07MB4321HTML@AM0PR07MB4321.eurprd07.prod.outlook.com>",
      );
      expect(message.contactRequestId).toBe(requestId);
      // The text: the words, the links' words, no markup, no address of the links or images.
      expect(message.body).toContain("Bonjour,");
      expect(message.body).toContain("Nous confirmons la commande du serveur Xeon.");
      expect(message.body).toContain("Voir le détail ou nos conditions.");
      for (const absent of [
        "<",
        "tracker",
        "alert(",
        "javascript:",
        "https://",
        "Logo",
        "MsoNormal",
      ]) {
        expect(message.body, absent).not.toContain(absent);
      }
      // The signature's logo (inline, by Content-ID) is layout, not a file: not kept, not said.
      expect(await filesOf(message.id)).toEqual([]);
      expect(message.body).not.toContain("Pièce jointe");
      // The layout: sanitised once, when stored.
      const html = message.html!;
      expect(html).toContain("Nous confirmons la commande du <b>serveur Xeon</b>.");
      expect(html).toContain(
        '<a href="https://www.example.com/conditions" rel="noopener noreferrer" target="_blank">nos conditions</a>',
      );
      expect(html).toContain("<table><tr><td>Quantité</td><td>2</td></tr></table>");
      for (const absent of [
        "<script",
        "document.cookie",
        "<style",
        "tracker.example.net",
        "<img",
        "cid:",
        "onclick",
        "onmouseover",
        "javascript:",
        "<iframe",
        "<form",
        "<input",
        "evil.example.net",
        "style=",
        "class=",
        "<meta",
      ]) {
        expect(html, absent).not.toContain(absent);
      }
      const [shown] = (await conversationOf(requestId, database.db)).filter(
        (m) => m.id === message.id,
      );
      expect(shown.hasHtml).toBe(true);

      // Shown to the sales team as a page of its own, that may load and run nothing.
      const path = `/admin/messages/${message.id}/html`;
      const params = { messageId: String(message.id) };
      const page = (await load(
        htmlRoute.loader,
        path,
        params,
        await cookieAs("sales"),
      )) as Response;
      expect(page.status).toBe(200);
      expect(Object.fromEntries(page.headers)).toMatchObject({
        "content-type": "text/html; charset=utf-8",
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
        "referrer-policy": "no-referrer",
      });
      const policy = page.headers.get("content-security-policy")!;
      expect(policy).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; sandbox\b/);
      expect(policy).not.toMatch(/allow-scripts|allow-same-origin|https?:/);
      const text = await page.text();
      expect(text).toMatch(/^<!doctype html>\n<html lang="fr">/);
      expect(text).toContain(
        `<title>Mise en forme d&#39;origine : RE: Votre demande ${reference}</title>`,
      );
      expect(text).toContain(html);
      expect(text).not.toContain("<script");
      // Refused to others; a message without HTML has no such page.
      const signedOut = await call(htmlRoute.loader, makeRequest(path), testContext, params);
      expect(signedOut.status).toBe(302);
      const catalogue = await cookieAs("catalogue");
      const refused = await call(
        htmlRoute.loader,
        makeRequest(path, { cookie: catalogue }),
        testContext,
        params,
      );
      expect(refused.status).toBe(403);
      const [plain] = await database.db
        .select({ id: requestMessages.id })
        .from(requestMessages)
        .where(eq(requestMessages.direction, "outbound"));
      const missing = (await load(
        htmlRoute.loader,
        path,
        { messageId: String(plain.id) },
        await sessionCookieFor((await signedInAdmin()).admin.id),
      )) as Response;
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("Ce message n'existe pas");
    });
  },
);
