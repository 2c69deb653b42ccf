import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterEach, describe, expect, it } from "vitest";
import * as account from "../../app/routes/admin/account";
import * as auth from "../../app/routes/admin/sign-in";
import * as personalData from "../../app/routes/admin/personal-data";
import * as twoFactor from "../../app/routes/admin/two-factor";
import * as adminUsers from "../../app/routes/admin/users";
import * as journalExport from "../../app/routes/resources/admin-journal-export[.]csv";
import { verifyPassword } from "../../app/features/accounts/password.server";
import {
  auditJournal,
  contactRequests,
  recoveryCodes,
  sessions,
  users,
} from "../../app/platform/schema.server";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";
import { insertRequest } from "../support/contacts";

// Issue 28: a security event and its journal row are one transaction: no row, no change. The
// journal's insert is made to fail for real, by a CHECK constraint refusing the event's action
// (what a full disk or a revoked grant would do), never by replacing our code.

const { database, createAdmin, sessionCookieFor } = useAdminSuite();
const SECOND = { email: "second@example.fr", password: "un autre mot de passe solide" };

const allowJournal = () =>
  database.db.execute(sql`alter table ${auditJournal} drop constraint if exists refused_for_test`);

/** From now on the journal refuses the rows of `action` (a constant of the test, never input). */
async function refuseJournal(action: string) {
  await allowJournal();
  await database.db.execute(
    sql`alter table ${auditJournal} add constraint refused_for_test check (action <> ${sql.raw(`'${action}'`)}) not valid`,
  );
}

async function userRow(id: number) {
  const [row] = await database.db.select().from(users).where(eq(users.id, id));
  return row;
}

const sessionsOf = (id: number) =>
  database.db.select().from(sessions).where(eq(sessions.userId, id));

describe(`security events and their journal rows (${testDatabaseKind})`, () => {
  afterEach(allowJournal);

  it("a role change, an account added or removed, a second factor reset: nothing without the row", async () => {
    const admin = await createAdmin();
    const cookie = await sessionCookieFor(admin.id);
    const second = await createAdmin(SECOND);
    await sessionCookieFor(second.id);
    const post = (form: Record<string, string>) =>
      call(adminUsers.action, makeRequest("/admin/users", { cookie, form }));

    await refuseJournal("role-changed");
    await expect(post({ intent: "role", id: String(second.id), role: "sales" })).rejects.toThrow();
    expect((await userRow(second.id)).role).toBe("admin");
    expect(await sessionsOf(second.id)).toHaveLength(1);

    await refuseJournal("user-removed");
    await expect(post({ intent: "remove", id: String(second.id) })).rejects.toThrow();
    expect(await userRow(second.id)).toBeDefined();

    await refuseJournal("user-added");
    const added = {
      intent: "add",
      email: "third@example.fr",
      password: "le troisième mot de passe",
    };
    await expect(post(added)).rejects.toThrow();
    expect(
      await database.db.select().from(users).where(eq(users.email, "third@example.fr")),
    ).toEqual([]);

    await database.db
      .update(users)
      .set({ totpSecret: "JBSWY3DPEHPK3PXP", totpEnabledAt: new Date() })
      .where(eq(users.id, second.id));
    await refuseJournal("second-factor-reset");
    await expect(post({ intent: "reset-2fa", id: String(second.id) })).rejects.toThrow();
    expect((await userRow(second.id)).totpEnabledAt).not.toBeNull();
    expect(await sessionsOf(second.id)).toHaveLength(1);
    expect(await database.db.select().from(auditJournal)).toEqual([]);
  });

  it("a password change and a second factor's enrolment: nothing without the row", async () => {
    const admin = await createAdmin();
    const cookie = await sessionCookieFor(admin.id);
    await sessionCookieFor(admin.id); // another browser, ended by either change when it happens
    await refuseJournal("password-changed");
    const next = "une nouvelle phrase de passe";
    await expect(
      call(
        account.action,
        makeRequest("/admin/account", {
          cookie,
          form: { currentPassword: ADMIN.password, newPassword: next, confirmPassword: next },
        }),
      ),
    ).rejects.toThrow();
    expect(await verifyPassword((await userRow(admin.id)).passwordHash, ADMIN.password)).toBe(true);
    expect(await sessionsOf(admin.id)).toHaveLength(2);

    await refuseJournal("second-factor-enabled");
    const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    const key = (page.data as { key: string }).key.replace(/\s/g, "");
    const code = new TOTP({ secret: Secret.fromBase32(key) }).generate();
    await expect(
      call(
        twoFactor.action,
        makeRequest("/admin/account/2fa", {
          cookie,
          form: { currentPassword: ADMIN.password, code },
        }),
      ),
    ).rejects.toThrow();
    expect((await userRow(admin.id)).totpEnabledAt).toBeNull();
    expect(await database.db.select().from(recoveryCodes)).toEqual([]);
    expect(await sessionsOf(admin.id)).toHaveLength(2);
  });

  it("a sign-in, an erasure and an export: no session, nothing erased, no file without the row", async () => {
    const admin = await createAdmin();
    const cookie = await sessionCookieFor(admin.id);
    await refuseJournal("sign-in");
    const signIn = await call(
      auth.action,
      makeRequest("/auth", { form: { email: ADMIN.email, password: ADMIN.password } }),
    );
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get("set-cookie")).toBeNull();
    expect(await sessionsOf(admin.id)).toHaveLength(1);

    await insertRequest(database.db, { name: "Jean Dupont", email: "jean.dupont@example.fr" });
    await refuseJournal("personal-data-erased");
    await expect(
      call(
        personalData.action,
        makeRequest("/admin/personal-data", {
          cookie,
          form: { intent: "erase", email: "jean.dupont@example.fr", confirm: "yes" },
        }),
      ),
    ).rejects.toThrow();
    expect(await database.db.select().from(contactRequests)).toHaveLength(1);

    await refuseJournal("journal-exported");
    await expect(
      call(journalExport.loader, makeRequest("/admin/journal/export.csv", { cookie })),
    ).rejects.toThrow();
  });
});
