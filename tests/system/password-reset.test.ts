import { describe, expect, it } from "vitest";
import { RESET_MESSAGES } from "../../app/features/accounts/password-reset";
import { useServer, useServerWithMail } from "./harness/use-server";
import { decodeHtml } from "./hostile/run";
import { clientAddress, postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * `Mot de passe oublié ?` (issue 20) through the built server and a real SMTP server on loopback:
 * the link comes by mail, sets a new password once, ends the session opened before; an unknown
 * address gets the same page and no mail. Without SMTP_URL: the same page, and the log says so.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe avant l'oubli" };
const NEW_PASSWORD = "une phrase toute neuve après l'oubli";
const MAIL_OFF =
  "password reset asked but e-mails are off (SMTP_URL is not set): no link sent; npm run admin:create sets a password from the shell";

/** The page's main content with the typed address taken out, to compare two answers. */
async function answerText(res: Response, email: string): Promise<string> {
  const main = /<main[\s\S]*<\/main>/.exec(decodeHtml(await res.text()))?.[0] ?? "";
  return main.replaceAll(email, "<email>");
}

describe("password reset by mail", () => {
  const { server, smtp } = useServerWithMail({ label: "reset", admin: ADMIN });

  it("mails a link that sets a new password once and ends the old session", async () => {
    const oldSession = await signInOverHttp(server.base, ADMIN);
    expect((await fetch(`${server.base}/admin`, { headers: { cookie: oldSession } })).status).toBe(
      200,
    );
    const signInPage = await (await fetch(`${server.base}/auth`)).text();
    expect(signInPage).toContain('href="/auth/mot-de-passe-oublie"');
    expect(signInPage).toContain("Mot de passe oublié ?");

    // An unknown address first: the same page, no mail.
    const unknown = await postSiteForm(
      server.base,
      "/auth/mot-de-passe-oublie",
      { email: "personne@example.fr" },
      "",
      clientAddress(501),
    );
    const known = await postSiteForm(
      server.base,
      "/auth/mot-de-passe-oublie",
      { email: ADMIN.email },
      "",
      clientAddress(502),
    );
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    const knownText = await answerText(known, ADMIN.email);
    expect(knownText).toContain(RESET_MESSAGES.requested);
    const unknownText = await answerText(unknown, "personne@example.fr");
    expect(unknownText).toBe(knownText);

    const [mail] = await smtp.waitForMails(1);
    await server.waitForLog("mail sent", 1);
    await sleep(300);
    expect(smtp.mails).toHaveLength(1);
    expect(mail.envelope.to).toEqual([ADMIN.email]);
    expect(mail.parsed.subject).toBe("Réinitialisation de votre mot de passe");
    expect(mail.parsed.from?.address).toBe("site@example.fr");
    const link = new RegExp(`${server.base}/auth/nouveau-mot-de-passe\\?token=([A-Za-z0-9_-]{43})`);
    const token = link.exec(mail.parsed.text ?? "")?.[1];
    expect(token).toBeDefined();
    expect(mail.parsed.html).toContain(`${server.base}/auth/nouveau-mot-de-passe?token=${token}`);
    expect(mail.parsed.text).toContain("valable 30 minutes");
    // The token is in no log line (the access log drops query strings).
    expect(server.output).not.toContain(token);

    const url = `/auth/nouveau-mot-de-passe?token=${token}`;
    const page = await fetch(`${server.base}${url}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(decodeHtml(await page.text())).toContain(
      `Choisissez le nouveau mot de passe du compte ${ADMIN.email}`,
    );

    const done = await postSiteForm(server.base, url, {
      token: token!,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/auth");
    // Nobody signed in by the link.
    expect(
      done.headers
        .getSetCookie()
        .some((c) => /^admin_session=[^;]+;/.test(c) && !/Max-Age=0/.test(c)),
    ).toBe(false);

    // The session opened before is over.
    const old = await fetch(`${server.base}/admin`, {
      headers: { cookie: oldSession },
      redirect: "manual",
    });
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);

    // The new password signs in; the old one no more; the link is spent.
    await expect(signInOverHttp(server.base, ADMIN)).rejects.toThrow(/sign-in refused \(401\)/);
    const cookie = await signInOverHttp(server.base, {
      email: ADMIN.email,
      password: NEW_PASSWORD,
    });
    expect((await fetch(`${server.base}/admin`, { headers: { cookie } })).status).toBe(200);
    const spent = await fetch(`${server.base}${url}`);
    expect(spent.status).toBe(410);
    const spentText = decodeHtml(await spent.text());
    expect(spentText).toContain(RESET_MESSAGES.invalidLink);
    expect(spentText).toContain('href="/auth/mot-de-passe-oublie"');

    const journal = await (
      await fetch(`${server.base}/admin/journal`, { headers: { cookie } })
    ).text();
    expect(decodeHtml(journal)).toContain("Réinitialisation du mot de passe demandée");
    expect(decodeHtml(journal)).toContain("Mot de passe réinitialisé");
  });
});

describe("password reset without SMTP_URL", () => {
  const server = useServer({ label: "reset-nosmtp", admin: ADMIN });

  it("answers the same page and logs that no link was sent", async () => {
    const res = await postSiteForm(server.base, "/auth/mot-de-passe-oublie", {
      email: ADMIN.email,
    });
    expect(res.status).toBe(200);
    expect(decodeHtml(await res.text())).toContain(RESET_MESSAGES.requested);
    await server.waitForLog(MAIL_OFF, 1);
  });
});
