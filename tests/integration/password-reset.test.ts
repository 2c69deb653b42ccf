import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as dashboard from "../../app/routes/admin/dashboard";
import * as forgot from "../../app/routes/admin/forgot-password";
import * as reset from "../../app/routes/admin/reset-password";
import { PASSWORD_POLICY_MESSAGES } from "../../app/features/accounts/password-policy.server";
import { signIn } from "../../app/features/accounts/sign-in.server";
import { markMailSent } from "../../app/features/mail/mail-outbox.server";
import {
  drawResetLink,
  PASSWORD_RESET_LIMITS,
  requestPasswordReset,
} from "../../app/features/accounts/password-reset.server";
import {
  auditJournal,
  mailOutbox,
  passwordResets,
  rateLimits,
  sessions,
  users,
} from "../../app/platform/schema.server";
import { hashSessionToken } from "../../app/features/accounts/sessions.server";
import { RESET_MESSAGES } from "../../app/features/accounts/password-reset";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

// `Mot de passe oublié ?` (issue 20) through its route modules: the same answer for any address,
// a link that works once for 30 minutes, every session ended, the password policy, throttling,
// the journal. SMTP_URL is set (nobody listens: no worker runs here), so requests queue mails.
vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
});

const { database, createAdmin, sessionCookieFor } = useAdminSuite();
const NEW_PASSWORD = "une toute nouvelle phrase secrète";

let ip = 0;
/** Posts `Mot de passe oublié ?`, from a new client address unless told. */
function requestReset(email: string, clientIp = `198.51.100.${++ip}`) {
  return call(forgot.action, makeRequest("/auth/mot-de-passe-oublie", { form: { email } }), {
    ...testContext,
    clientIp,
  });
}

/** The link's token of the last reset mail queued, drawn as the mail worker does when it sends it. */
async function lastToken(): Promise<string> {
  const [mail] = await database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, "password_reset"))
    .orderBy(sql`${mailOutbox.id} desc`)
    .limit(1);
  const link = mail?.passwordResetId
    ? await drawResetLink(mail.passwordResetId, database.db)
    : null;
  if (!link) throw new Error("no usable reset mail queued");
  return link.token;
}

const linkPage = (token: string) =>
  call(reset.loader, makeRequest(`/auth/nouveau-mot-de-passe?token=${token}`));

function setPassword(token: string, newPassword = NEW_PASSWORD, confirmPassword = newPassword) {
  return call(
    reset.action,
    makeRequest(`/auth/nouveau-mot-de-passe?token=${token}`, {
      form: { token, newPassword, confirmPassword },
    }),
  );
}

async function passwordHash(): Promise<string> {
  const [row] = await database.db.select().from(users).where(eq(users.email, ADMIN.email));
  return row.passwordHash;
}

describe(`password reset (${testDatabaseKind})`, () => {
  let adminId: number;
  beforeEach(async () => {
    adminId = (await createAdmin()).id;
  });

  it("answers the same for an unknown address, after the same counters and no stored row", async () => {
    const known = await requestReset(ADMIN.email, "198.51.100.200");
    const unknown = await requestReset("personne@example.fr", "198.51.100.200");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.data).toEqual(known.data);
    expect(known.data).toEqual({ sent: true });
    // The page shows the same sentence whichever it was.
    expect(RESET_MESSAGES.requested).toMatch(/^Si un compte existe pour cette adresse/);
    // One link, for the account only; the same kinds of counters for both addresses.
    expect(await database.db.select().from(passwordResets)).toHaveLength(1);
    const keys = (await database.db.select().from(rateLimits)).map((r) =>
      r.key.replace(/[0-9a-f]{32}/, "<email>"),
    );
    expect(keys.sort()).toEqual(
      [
        "reset:email-ip:<email>:198.51.100.200",
        "reset:email-ip:<email>:198.51.100.200",
        "reset:email:<email>",
        "reset:email:<email>",
        "reset:ip:198.51.100.200",
      ].sort(),
    );
  });

  it("keeps no usable token in the database: the link's is drawn when the mail is sent, its hash stored", async () => {
    await requestReset(ADMIN.email);
    const [queued] = await database.db.select().from(passwordResets);
    const [mail] = await database.db.select().from(mailOutbox);
    expect(mail).toMatchObject({
      kind: "password_reset",
      passwordResetId: queued.id,
      status: "pending",
    });
    expect(mail.contactRequestId).toBeNull();
    // Nothing in the outbox row or the reset reads as a link (issue 28: a database reader).
    expect(JSON.stringify(mail)).not.toMatch(/[A-Za-z0-9_-]{43}/);
    const token = await lastToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(passwordResets);
    expect(row.userId).toBe(adminId);
    expect(row.tokenHash).toBe(hashSessionToken(token));
    expect(row.tokenHash).not.toBe(queued.tokenHash);
    expect(row.usedAt).toBeNull();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60_000);
    // A second attempt of the mail draws another token: only the newest link works.
    const again = await lastToken();
    expect((await linkPage(token)).status).toBe(410);
    expect((await linkPage(again)).status).toBe(200);
    // A spent link draws nothing: the worker marks its mail failed.
    await markMailSent(mail.id, database.db);
    expect((await setPassword(again)).status).toBe(302);
    expect(await drawResetLink(row.id, database.db)).toBeUndefined();
  });

  it("sets the password once: the link is then refused with a 410 and a way to ask again", async () => {
    await requestReset(ADMIN.email);
    const token = await lastToken();
    const page = await linkPage(token);
    expect(page.status).toBe(200);
    expect(page.data).toEqual({ valid: true, token, email: ADMIN.email });
    const before = await passwordHash();

    const done = await setPassword(token);
    expect(done.status).toBe(302);
    expect(done.location).toBe("/auth");
    expect(done.headers.get("set-cookie")).toContain("flash=passwordReset");
    expect(await passwordHash()).not.toBe(before);
    const [row] = await database.db.select().from(passwordResets);
    expect(row.usedAt).not.toBeNull();
    expect(
      (await signIn({ email: ADMIN.email, password: NEW_PASSWORD }, "198.51.100.90")).kind,
    ).toBe("signed-in");
    expect((await signIn(ADMIN, "198.51.100.91")).kind).toBe("invalid");

    const again = await setPassword(token, "encore une autre phrase secrète");
    expect(again.status).toBe(410);
    expect(again.data).toMatchObject({
      description: RESET_MESSAGES.invalidLink,
      fieldErrors: { token: RESET_MESSAGES.invalidLink },
    });
    expect((await linkPage(token)).status).toBe(410);
    expect((await linkPage(token)).data).toEqual({ valid: false });
  });

  it("refuses an unknown or malformed token without changing anything", async () => {
    const before = await passwordHash();
    for (const token of ["A".repeat(43), "' OR '1'='1", ""]) {
      expect((await linkPage(token)).status).toBe(410);
      expect((await setPassword(token)).status).toBe(410);
    }
    expect((await call(reset.loader, makeRequest("/auth/nouveau-mot-de-passe"))).status).toBe(410);
    expect(await passwordHash()).toBe(before);
  });

  it("refuses a link past its 30 minutes", async () => {
    await requestReset(ADMIN.email);
    const token = await lastToken();
    await database.db
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.userId, adminId));
    const before = await passwordHash();
    expect((await linkPage(token)).status).toBe(410);
    expect((await setPassword(token)).status).toBe(410);
    expect(await passwordHash()).toBe(before);
  });

  it("drops links (and their mails) a day past their end", async () => {
    await requestReset(ADMIN.email);
    await database.db.update(passwordResets).set({ expiresAt: sql`now() - interval '25 hours'` });
    await requestReset("personne@example.fr");
    expect(await database.db.select().from(passwordResets)).toHaveLength(0);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("a new request replaces the previous link", async () => {
    await requestReset(ADMIN.email);
    const first = await lastToken();
    await requestReset(ADMIN.email);
    const second = await lastToken();
    expect(second).not.toBe(first);
    expect((await linkPage(first)).status).toBe(410);
    expect((await linkPage(second)).status).toBe(200);
    // The first link's mail went with it, unsent.
    expect(await database.db.select().from(mailOutbox)).toHaveLength(1);
  });

  it("ends every session of the account, clears 'must change', and signs nobody in", async () => {
    const cookies = [await sessionCookieFor(adminId), await sessionCookieFor(adminId)];
    await database.db.update(users).set({ mustChangePassword: true }).where(eq(users.id, adminId));
    await requestReset(ADMIN.email);
    const done = await setPassword(await lastToken());
    expect(done.status).toBe(302);
    expect(done.headers.get("set-cookie")).not.toMatch(/admin_session=[A-Za-z0-9_-]{43}/);
    expect(await database.db.select().from(sessions)).toHaveLength(0);
    for (const cookie of cookies) {
      const page = await call(dashboard.loader, makeRequest("/admin", { cookie }));
      expect(page.status).toBe(302);
      expect(page.location).toMatch(/^\/auth\?redirectTo=/);
    }
    const [user] = await database.db.select().from(users).where(eq(users.id, adminId));
    expect(user.mustChangePassword).toBe(false);
  });

  it("still asks the second factor at the next sign-in", async () => {
    await database.db
      .update(users)
      .set({ totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", totpEnabledAt: new Date() })
      .where(eq(users.id, adminId));
    await requestReset(ADMIN.email);
    expect((await setPassword(await lastToken())).status).toBe(302);
    const next = await signIn({ email: ADMIN.email, password: NEW_PASSWORD }, "198.51.100.92");
    expect(next.kind).toBe("second-factor");
  });

  it("applies the password policy and the confirmation, the link still good", async () => {
    await requestReset(ADMIN.email);
    const token = await lastToken();
    const before = await passwordHash();
    const common = await setPassword(token, "Password1234");
    expect(common.status).toBe(400);
    expect(common.data).toMatchObject({
      fieldErrors: { newPassword: PASSWORD_POLICY_MESSAGES.common },
    });
    const withEmail = await setPassword(token, `${ADMIN.email} 2026!`);
    expect(withEmail.status).toBe(400);
    expect(withEmail.data).toMatchObject({
      fieldErrors: { newPassword: PASSWORD_POLICY_MESSAGES.email },
    });
    const short = await setPassword(token, "court");
    expect(short.status).toBe(400);
    const mismatch = await setPassword(token, NEW_PASSWORD, `${NEW_PASSWORD}!`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.data).toMatchObject({
      fieldErrors: { confirmPassword: "Les deux mots de passe ne correspondent pas." },
    });
    expect(await passwordHash()).toBe(before);
    expect((await linkPage(token)).status).toBe(200);
    expect((await setPassword(token)).status).toBe(302);
  });

  it("throttles per e-mail and address (429), and caps the mails of one account silently", async () => {
    const from = "198.51.100.250";
    const { limit } = PASSWORD_RESET_LIMITS.perEmailAndIp;
    for (let i = 0; i < limit; i++)
      expect((await requestReset("x@example.fr", from)).status).toBe(200);
    const refused = await requestReset("x@example.fr", from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.data).toMatchObject({
      description: expect.stringMatching(/^Trop de demandes\./),
    });
    // Another address of the same client is still answered; so is this address from elsewhere.
    expect((await requestReset(ADMIN.email, from)).status).toBe(200);
    expect((await requestReset("x@example.fr", "198.51.100.251")).status).toBe(200);

    // The account's mails: capped whoever asks, the same answer, the last link sent still good.
    const cap = PASSWORD_RESET_LIMITS.mailsPerAccount.limit;
    for (let i = 1; i < cap; i++) await requestReset(ADMIN.email);
    const last = await lastToken();
    const queued = (await database.db.select().from(mailOutbox)).length;
    const over = await requestReset(ADMIN.email);
    expect(over.status).toBe(200);
    expect(over.data).toEqual({ sent: true });
    expect(await database.db.select().from(mailOutbox)).toHaveLength(queued);
    expect((await linkPage(last)).status).toBe(200);
  });

  it("throttles per address whatever the e-mail", async () => {
    const from = "198.51.100.240";
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp.limit; i++) {
      expect((await requestReset(`n${i}@example.fr`, from)).status).toBe(200);
    }
    expect((await requestReset(ADMIN.email, from)).status).toBe(429);
    expect(await database.db.select().from(passwordResets)).toHaveLength(0);
  });

  it("refuses a malformed address with a French 400, nothing stored", async () => {
    for (const email of ["", "pas une adresse", `${"a".repeat(260)}@example.fr`]) {
      const outcome = await requestReset(email);
      expect(outcome.status).toBe(400);
      expect(outcome.data).toMatchObject({ error: "Demande non envoyée" });
    }
    expect(await database.db.select().from(rateLimits)).toHaveLength(0);
  });

  it("journals the request and the reset under the account, an unknown address unnamed", async () => {
    await requestReset("personne@example.fr");
    await requestReset(ADMIN.email);
    await setPassword(await lastToken());
    const rows = await database.db.select().from(auditJournal).orderBy(asc(auditJournal.id));
    expect(rows.map((r) => [r.action, r.actorEmail, r.actorId])).toEqual([
      ["password-reset-requested", null, null],
      ["password-reset-requested", ADMIN.email, adminId],
      ["password-reset", ADMIN.email, adminId],
    ]);
    expect(rows.every((r) => r.target === null)).toBe(true);
    expect(rows[1].ip).toMatch(/^198\.51\.100\./);
  });

  it("without SMTP_URL stores and queues nothing, and answers the same", async () => {
    const result = await requestPasswordReset(
      ADMIN.email,
      "198.51.100.99",
      { mailEnabled: false },
      database.db,
    );
    expect(result).toMatchObject({ kind: "requested", outcome: "mail-off" });
    expect(await database.db.select().from(passwordResets)).toHaveLength(0);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });
});
