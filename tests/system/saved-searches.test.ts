import { describe, expect, it } from "vitest";
import { SAVED_SEARCH_MESSAGES } from "../../app/features/saved-searches/saved-searches";
import { EMPTY_OFFER_NUMBERS, VALID_OFFER_FORM } from "../support/offers";
import type { ReceivedMail } from "../support/smtp";
import { useServerWithMail } from "./harness/use-server";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * `Me prévenir des nouvelles offres` (issue 42) through the built server on its embedded database
 * and a real SMTP server on loopback, the follow-up checks every 4 s (FOLLOW_UP_CHECK_SECONDS): a
 * saved search confirmed by its mailed link, an unmatched offer mails nothing, two matching offers
 * published together give one digest listing both, and its one-click unsubscribe ends the search.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les recherches" };
const VISITOR = "jeanne@example.fr";
const QUERY = "?q=zorglub";
const CHECK = "follow-up checks done";
/** A link of a saved-search mail, on the server's SITE_URL. */
const TOKEN_LINK = (path: string) =>
  new RegExp(`http://127\\.0\\.0\\.1:\\d+${path}\\?jeton=([A-Za-z0-9_-]{43})`);
const offer = (title: string, reference: string) => ({
  ...VALID_OFFER_FORM,
  ...EMPTY_OFFER_NUMBERS,
  title,
  reference,
  delivery: "stock_24h",
});

describe("saved searches by mail", () => {
  const { server, smtp } = useServerWithMail({
    label: "saved-searches",
    admin: ADMIN,
    env: { FOLLOW_UP_CHECK_SECONDS: "4", LOG_LEVEL: "debug" },
  });
  let cookie = "";

  const mailsTo = (address: string): ReceivedMail[] =>
    smtp.mails.filter((m) => m.envelope.to.some((to) => to.toLowerCase() === address));
  const checks = () => server.logLines(CHECK).length;
  /** Resolves when `n` more follow-up checks have ended than `from`. */
  const afterChecks = (n: number, from = checks()) => server.waitForLog(CHECK, from + n, 30_000);
  const createOffer = async (title: string, reference: string) => {
    const created = await postSiteForm(
      server.base,
      "/admin/offers/new",
      offer(title, reference),
      cookie,
    );
    expect(created.status).toBe(302);
  };
  const searchesCard = async () =>
    decodeHtml(await (await fetch(`${server.base}/admin/offers`, { headers: { cookie } })).text());

  it("mails a confirmation link; its page's button confirms the search", async () => {
    cookie = await signInOverHttp(server.base, ADMIN);
    const posted = await postSiteForm(
      server.base,
      `/recherches${QUERY}`,
      { email: VISITOR },
      "",
      clientAddress(4201),
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`/recherches${QUERY}&envoyee=1`);

    const deadline = Date.now() + 15_000;
    while (mailsTo(VISITOR).length === 0 && Date.now() < deadline) await sleep(50);
    const [mail] = mailsTo(VISITOR);
    expect(mail.parsed.subject).toBe("Confirmez votre recherche enregistrée");
    const link = TOKEN_LINK("/recherches/confirmer").exec(mail.parsed.text ?? "");
    expect(link).not.toBeNull();
    const page = await fetch(link![0]);
    expect(page.status).toBe(200);
    expect(decodeHtml(await page.text())).toContain("Confirmer ma recherche");
    expect(await searchesCard()).toContain("Aucune recherche enregistrée");

    const confirmed = await postSiteForm(
      server.base,
      "/recherches/confirmer",
      { jeton: link![1] },
      "",
      clientAddress(4202),
    );
    expect(confirmed.status).toBe(200);
    const card = await searchesCard();
    expect(card).toContain(`href="/offers${QUERY}"`);
    expect(card).toContain("1 recherche");
  });

  it("an unmatched offer mails nothing; two matching offers published together give one digest", async () => {
    await createOffer("Serveur Xeon Ordinaire", "SRCH-000");
    await afterChecks(2);
    expect(mailsTo(VISITOR)).toHaveLength(1);

    // Right after a check, both within the same 4 s: the next check sees the two together.
    await createOffer("Serveur Zorglub Un", "SRCH-001");
    await createOffer("Serveur Zorglub Deux", "SRCH-002");
    const deadline = Date.now() + 20_000;
    while (mailsTo(VISITOR).length < 2 && Date.now() < deadline) await sleep(50);
    await afterChecks(1);
    const mails = mailsTo(VISITOR);
    expect(mails).toHaveLength(2);
    const digest = mails[1];
    expect(digest.parsed.subject).toBe("2 nouvelles offres pour vos recherches");
    const text = digest.parsed.text ?? "";
    expect(text).toContain("Recherche : « zorglub »");
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/offers\/serveur-zorglub-un\n/);
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/offers\/serveur-zorglub-deux\n/);
    expect(text).not.toContain("SRCH-000");
    const headers = new Map(digest.parsed.headers.map((h) => [h.key, h.value]));
    const unsubscribe = TOKEN_LINK("/recherches/desinscription").exec(text);
    expect(unsubscribe).not.toBeNull();
    expect(headers.get("list-unsubscribe")).toBe(`<${unsubscribe![0]}>`);
    expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  });

  it("the digest's one-click unsubscribe (RFC 8058) ends the search: a new match mails nothing", async () => {
    const digest = mailsTo(VISITOR)[1];
    const link = TOKEN_LINK("/recherches/desinscription").exec(digest.parsed.text ?? "");
    expect(decodeHtml(await (await fetch(link![0])).text())).toContain("Me désinscrire");
    // What a mail provider's server posts: no cookie, no Origin, no token in the body.
    const oneClick = await fetch(link![0], {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(oneClick.status).toBe(200);
    expect(decodeHtml(await oneClick.text())).toContain(SAVED_SEARCH_MESSAGES.unsubscribed.title);
    expect(await searchesCard()).toContain("Aucune recherche enregistrée");
    expect((await fetch(link![0])).status).toBe(404);

    await createOffer("Serveur Zorglub Trois", "SRCH-003");
    await afterChecks(3);
    expect(mailsTo(VISITOR)).toHaveLength(2);
  });
});
