import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { beforeEach, describe, expect, it } from "vitest";
import * as adminUsers from "../../app/routes/admin/users";
import * as confirm from "../../app/routes/admin/confirm-identity";
import * as contacts from "../../app/routes/admin/contacts";
import * as personalData from "../../app/routes/admin/personal-data";
import * as twoFactor from "../../app/routes/admin/two-factor";
import * as webhooks from "../../app/routes/admin/webhooks";
import * as contactsExport from "../../app/routes/resources/admin-contacts-export[.]csv";
import * as personalDataExport from "../../app/routes/resources/admin-personal-data-export";
import * as journalPage from "../../app/routes/admin/journal";
import * as journalExport from "../../app/routes/resources/admin-journal-export[.]csv";
import { sessions, users } from "../../app/platform/schema.server";
import { hashSessionToken } from "../../app/features/accounts/sessions.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { insertRequest } from "../support/contacts";

// `Confirmez votre identité` (issue 20): sensitive actions past ADMIN_REAUTH_MINUTES (10) after
// sign-in ask the password (and a code when enrolled), then carry on with what was asked.

const { database, createAdmin, sessionCookieFor, snapshot, snapshotFingerprint } = useAdminSuite();

const NEW = {
  intent: "add",
  email: "nouveau@example.fr",
  password: "un mot de passe initial long",
};

async function makeStale(cookie: string, minutes = 11) {
  await database.db
    .update(sessions)
    .set({ authenticatedAt: sql`now() - ${`${minutes} minutes`}::interval` })
    .where(eq(sessions.idHash, hashSessionToken(cookie.split("=")[1])));
}

type Reauth = { reauth: { fields: Record<string, string>; secondFactor: boolean; error?: string } };

describe(`re-authentication (${testDatabaseKind})`, () => {
  let cookie: string;
  beforeEach(async () => {
    cookie = await sessionCookieFor((await createAdmin()).id);
  });

  it("does a sensitive action at once within ADMIN_REAUTH_MINUTES of sign-in", async () => {
    await makeStale(cookie, 9);
    const added = await call(adminUsers.action, makeRequest("/admin/users", { cookie, form: NEW }));
    expect(added.status).toBe(302);
  });

  it("asks the password past it, carries what was asked, then does it", async () => {
    await makeStale(cookie);
    const before = await snapshot();
    const asked = await call(adminUsers.action, makeRequest("/admin/users", { cookie, form: NEW }));
    expect(asked.status).toBe(200);
    const { reauth } = asked.data as Reauth;
    expect(reauth.fields).toEqual(NEW);
    expect(reauth.secondFactor).toBe(false);
    expect(await snapshot()).toEqual(before);

    const wrong = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie,
        form: { ...reauth.fields, reauthPassword: "pas le bon" },
      }),
    );
    expect(wrong.status).toBe(401);
    expect((wrong.data as Reauth).reauth.error).toBe("Mot de passe ou code incorrect.");
    // Nothing but the failure's count (rate limit).
    expect({ ...(await snapshot()), rateLimits: [] }).toEqual({
      ...before,
      rateLimits: [],
    });

    const done = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie,
        form: { ...reauth.fields, reauthPassword: ADMIN.password },
      }),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("set-cookie")).toContain("flash=adminAdded");
    expect(await database.db.select().from(users).where(eq(users.email, NEW.email))).toHaveLength(
      1,
    );
    // Confirmed: the next sensitive action goes through for ADMIN_REAUTH_MINUTES.
    const [added] = await database.db.select().from(users).where(eq(users.email, NEW.email));
    const role = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie,
        form: { intent: "role", id: String(added.id), role: "sales" },
      }),
    );
    expect(role.status).toBe(302);
  });

  it("asks a code too when the account has a second factor", async () => {
    const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    const key = (page.data as { key: string }).key.replace(/\s/g, "");
    const totp = new TOTP({ secret: Secret.fromBase32(key) });
    await call(
      twoFactor.action,
      makeRequest("/admin/account/2fa", {
        cookie,
        form: { currentPassword: ADMIN.password, code: totp.generate() },
      }),
    );
    await makeStale(cookie);
    const asked = await call(adminUsers.action, makeRequest("/admin/users", { cookie, form: NEW }));
    expect((asked.data as Reauth).reauth.secondFactor).toBe(true);
    const noCode = await call(
      adminUsers.action,
      makeRequest("/admin/users", { cookie, form: { ...NEW, reauthPassword: ADMIN.password } }),
    );
    expect(noCode.status).toBe(401);
    const withCode = await call(
      adminUsers.action,
      makeRequest("/admin/users", {
        cookie,
        form: {
          ...NEW,
          reauthPassword: ADMIN.password,
          reauthCode: totp.generate({ timestamp: Date.now() + 30_000 }),
        },
      }),
    );
    expect(withCode.status).toBe(302);
  });

  it("sends the exports through the confirmation page, then on to the file", async () => {
    await insertRequest(database.db, { name: "Jeanne", email: "jeanne@example.fr" });
    await makeStale(cookie);
    const list = await call(contacts.loader, makeRequest("/admin/contacts", { cookie }));
    expect((list.data as { exportHref: string }).exportHref).toBe(
      "/admin/confirm?redirectTo=%2Fadmin%2Fcontacts%2Fexport.csv",
    );
    // The journal's export too (issue 28), its link on the journal page as well.
    const journal = await call(journalPage.loader, makeRequest("/admin/journal", { cookie }));
    expect((journal.data as { exportHref: string }).exportHref).toBe(
      "/admin/confirm?redirectTo=%2Fadmin%2Fjournal%2Fexport.csv",
    );
    for (const [fn, path] of [
      [contactsExport.loader, "/admin/contacts/export.csv?status=pending"],
      [personalDataExport.loader, "/admin/personal-data/export?email=jeanne%40example.fr"],
      [journalExport.loader, "/admin/journal/export.csv?action=sign-in"],
    ] as const) {
      const outcome = await call(fn, makeRequest(path, { cookie }));
      expect(outcome.status, path).toBe(302);
      expect(outcome.location, path).toBe(
        `/admin/confirm?${new URLSearchParams({ redirectTo: path })}`,
      );
    }
    const target = "/admin/contacts/export.csv?status=pending";
    const form = await call(
      confirm.loader,
      makeRequest(`/admin/confirm?${new URLSearchParams({ redirectTo: target })}`, { cookie }),
    );
    expect(form.data).toMatchObject({ redirectTo: target, secondFactor: false });
    const confirmed = await call(
      confirm.action,
      makeRequest("/admin/confirm", {
        cookie,
        form: { redirectTo: target, reauthPassword: ADMIN.password },
      }),
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.location).toBe(target);
    const file = await call(contactsExport.loader, makeRequest(target, { cookie }));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/csv");
  });

  it("asks before erasing personal data", async () => {
    await insertRequest(database.db, { name: "Jeanne", email: "jeanne@example.fr" });
    await makeStale(cookie);
    const form = { intent: "erase", email: "jeanne@example.fr", confirm: "yes" };
    const before = await snapshotFingerprint();
    const asked = await call(
      personalData.action,
      makeRequest("/admin/personal-data", { cookie, form }),
    );
    expect((asked.data as Reauth).reauth.fields).toEqual(form);
    expect(await snapshotFingerprint()).toEqual(before);
    const done = await call(
      personalData.action,
      makeRequest("/admin/personal-data", {
        cookie,
        form: { ...form, reauthPassword: ADMIN.password },
      }),
    );
    expect(done.status).toBe(302);
    expect(await snapshotFingerprint()).not.toEqual(before);
  });

  it("asks before adding a webhook (where every request goes), not before a resend", async () => {
    await makeStale(cookie);
    // An address literal (no DNS here), public: the check lets it through.
    const form = { intent: "create", url: "https://93.184.215.14/hook", created: "on" };
    const before = await snapshotFingerprint();
    const asked = await call(webhooks.action, makeRequest("/admin/webhooks", { cookie, form }));
    expect((asked.data as Reauth).reauth.fields).toEqual(form);
    expect(await snapshotFingerprint()).toEqual(before);
    const done = await call(
      webhooks.action,
      makeRequest("/admin/webhooks", { cookie, form: { ...form, reauthPassword: ADMIN.password } }),
    );
    expect((done.data as { created?: { url: string } }).created?.url).toBe(form.url);
    // A resend of a delivery changes no destination: no confirmation (here: none to resend).
    await makeStale(cookie);
    const resend = await call(
      webhooks.action,
      makeRequest("/admin/webhooks", { cookie, form: { intent: "resend", id: "1" } }),
    );
    expect(resend.data).not.toHaveProperty("reauth");
  });
});
