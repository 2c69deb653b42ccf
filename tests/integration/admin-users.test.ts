import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as account from "../../app/routes/admin/account";
import * as adminUsers from "../../app/routes/admin/users";
import * as dashboard from "../../app/routes/admin/dashboard";
import { findSessionUser } from "../../app/features/accounts/sessions.server";
import { verifyPassword } from "../../app/features/accounts/password.server";
import { sessions, users } from "../../app/platform/schema.server";
import { listAdmins, removeAdmin } from "../../app/features/accounts/users.server";
import { testDatabaseKind, truncateAll } from "../support/database";
import { ADMIN, call, makeRequest, testContext } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

const { database, createAdmin, sessionCookieFor, signedInAdmin, snapshotFingerprint } =
  useAdminSuite();

const SECOND = { email: "second@example.fr", password: "un autre mot de passe solide" };
const NEW_PASSWORD = "nouveau mot de passe très long";

const token = (cookie: string) => cookie.split("=")[1];
/** An administrator's change, journaled with it. */
const by = (actor: { id: number; email: string }) => ({ context: testContext, actor });

async function isSignedIn(cookie: string) {
  const outcome = await call(dashboard.loader, makeRequest("/admin", { cookie }));
  return outcome.status === 200;
}

describe(`several administrators (${testDatabaseKind})`, () => {
  let first: { id: number; email: string };
  let cookie: string;
  beforeEach(async () => {
    ({ admin: first, cookie } = await signedInAdmin());
  });

  describe("/admin/users", () => {
    it("lists the administrators with who is signed in", async () => {
      const second = await createAdmin(SECOND);
      const outcome = await call(adminUsers.loader, makeRequest("/admin/users", { cookie }));
      const page = outcome.data as Awaited<ReturnType<typeof adminUsers.loader>>;
      expect(page.admins.map((a) => a.email)).toEqual([ADMIN.email, SECOND.email]);
      expect(page.currentUserId).toBe(first.id);
      expect(page.admins[0].createdAt).toBeInstanceOf(Date);
      // The no-JavaScript confirmation step, never for oneself.
      const confirm = await call(
        adminUsers.loader,
        makeRequest(`/admin/users?remove=${second.id}`, { cookie }),
      );
      expect((confirm.data as typeof page).pendingRemove?.email).toBe(SECOND.email);
      for (const remove of [String(first.id), "abc", "424242"]) {
        const none = await call(
          adminUsers.loader,
          makeRequest(`/admin/users?remove=${remove}`, { cookie }),
        );
        expect((none.data as typeof page).pendingRemove).toBeNull();
      }
    });

    it("adds an administrator who can then sign in; a taken e-mail is refused in French", async () => {
      const added = await call(
        adminUsers.action,
        makeRequest("/admin/users", {
          cookie,
          form: { intent: "add", email: " Second@Example.FR ", password: SECOND.password },
        }),
      );
      expect(added.status).toBe(302);
      expect(added.location).toBe("/admin/users");
      expect(added.headers.get("set-cookie")).toContain("flash=adminAdded");
      const [row] = await database.db.select().from(users).where(eq(users.email, SECOND.email));
      expect(row.role).toBe("admin");
      expect(await verifyPassword(row.passwordHash, SECOND.password)).toBe(true);

      const before = await snapshotFingerprint();
      for (const email of [SECOND.email, "SECOND@example.fr", ADMIN.email]) {
        const again = await call(
          adminUsers.action,
          makeRequest("/admin/users", {
            cookie,
            form: { intent: "add", email, password: "encore un mot de passe" },
          }),
        );
        expect(again.status).toBe(409);
        expect(JSON.stringify(again.data)).toContain(
          "Un administrateur utilise déjà cette adresse e-mail.",
        );
      }
      // Nobody's password was reset by the refused attempts.
      expect(await snapshotFingerprint()).toEqual(before);
    });

    it("refuses a bad e-mail, a short password or a forged intent, writing nothing", async () => {
      const before = await snapshotFingerprint();
      const cases: [Record<string, string>, number, string][] = [
        [
          { intent: "add", email: "pas-un-email", password: SECOND.password },
          400,
          "n'est pas valide",
        ],
        [{ intent: "add", email: "", password: SECOND.password }, 400, "est obligatoire"],
        [{ intent: "add", email: SECOND.email, password: "court" }, 400, "au moins 12 caractères"],
        [{ intent: "add", email: SECOND.email, password: "x".repeat(257) }, 400, "dépasser 256"],
        [{ intent: "add", email: SECOND.email }, 400, "au moins 12 caractères"],
        [{ intent: "promote", id: "1" }, 400, "Requête invalide"],
        [{ intent: "remove", id: "abc" }, 400, "Cet administrateur n'existe plus."],
        [{ intent: "remove", id: "424242" }, 404, "Cet administrateur n'existe plus."],
        [{ intent: "remove", id: "1" }, 409, "Vous ne pouvez pas supprimer votre propre compte."],
      ];
      for (const [form, status, message] of cases) {
        const outcome = await call(
          adminUsers.action,
          makeRequest("/admin/users", { cookie, form }),
        );
        expect(outcome.status, JSON.stringify(form)).toBe(status);
        expect(JSON.stringify(outcome.data)).toContain(message);
        // The password is never sent back.
        expect(JSON.stringify(outcome.data)).not.toContain(SECOND.password);
      }
      expect(await snapshotFingerprint()).toEqual(before);
    });

    it("removes another administrator and signs them out everywhere", async () => {
      const second = await createAdmin(SECOND);
      const secondCookies = [await sessionCookieFor(second.id), await sessionCookieFor(second.id)];
      expect(await isSignedIn(secondCookies[0])).toBe(true);
      const removed = await call(
        adminUsers.action,
        makeRequest("/admin/users", { cookie, form: { intent: "remove", id: String(second.id) } }),
      );
      expect(removed.status).toBe(302);
      expect(removed.headers.get("set-cookie")).toContain("flash=adminRemoved");
      expect((await listAdmins()).map((a) => a.id)).toEqual([first.id]);
      expect(
        await database.db.select().from(sessions).where(eq(sessions.userId, second.id)),
      ).toEqual([]);
      for (const c of secondCookies) expect(await isSignedIn(c)).toBe(false);
      expect(await isSignedIn(cookie)).toBe(true);
    });

    it("never removes the last administrator, even when two remove each other at once", async () => {
      for (let round = 0; round < 5; round++) {
        await truncateAll(database.db);
        const a = await createAdmin();
        const b = await createAdmin(SECOND);
        const [ab, ba] = await Promise.all([removeAdmin(b.id, by(a)), removeAdmin(a.id, by(b))]);
        expect([ab.kind, ba.kind].sort()).toEqual(["last", "removed"]);
        expect(await listAdmins()).toHaveLength(1);
      }
      // The same through the route, with real sessions.
      await truncateAll(database.db);
      const a = await createAdmin();
      const b = await createAdmin(SECOND);
      const [ca, cb] = [await sessionCookieFor(a.id), await sessionCookieFor(b.id)];
      const outcomes = await Promise.all([
        call(
          adminUsers.action,
          makeRequest("/admin/users", { cookie: ca, form: { intent: "remove", id: String(b.id) } }),
        ),
        call(
          adminUsers.action,
          makeRequest("/admin/users", { cookie: cb, form: { intent: "remove", id: String(a.id) } }),
        ),
      ]);
      const statuses = outcomes.map((o) => o.status).sort();
      // The loser is refused (409) or, if the winner's delete came first, no longer signed in (401).
      expect(statuses[0]).toBe(302);
      expect([401, 409]).toContain(statuses[1]);
      const left = await listAdmins();
      expect(left).toHaveLength(1);
      // The one left is still signed in.
      expect(await isSignedIn(left[0].id === a.id ? ca : cb)).toBe(true);
    });

    it("with three, concurrent removals by and of the same person leave at least one", async () => {
      const b = await createAdmin(SECOND);
      const c = await createAdmin({
        email: "third@example.fr",
        password: SECOND.password,
      });
      // a removes b while b removes c and c removes a.
      const results = await Promise.all([
        removeAdmin(b.id, by(first)),
        removeAdmin(c.id, by(b)),
        removeAdmin(first.id, by(c)),
      ]);
      expect(results.filter((r) => r.kind === "removed").length).toBeGreaterThanOrEqual(1);
      expect((await listAdmins()).length).toBeGreaterThanOrEqual(1);
      expect((await listAdmins()).length).toBe(
        3 - results.filter((r) => r.kind === "removed").length,
      );
    });
  });

  describe("password policy", () => {
    it("refuses common or breached passwords and ones containing the e-mail, writing nothing", async () => {
      const before = await snapshotFingerprint();
      for (const [form, message] of [
        [{ intent: "add", email: "jo@example.fr", password: "password1234" }, "les plus courants"],
        [
          { intent: "add", email: "jean.dupont@example.fr", password: "jean.dupont 2026!" },
          "adresse e-mail",
        ],
      ] as const) {
        const outcome = await call(
          adminUsers.action,
          makeRequest("/admin/users", { cookie, form }),
        );
        expect(outcome.status).toBe(400);
        expect(JSON.stringify(outcome.data)).toContain(message);
      }
      for (const newPassword of ["azertyuiop123456", "admin@example.fr et un peu plus"]) {
        const outcome = await call(
          account.action,
          makeRequest("/admin/account", {
            cookie,
            form: { currentPassword: ADMIN.password, newPassword, confirmPassword: newPassword },
          }),
        );
        expect(outcome.status, newPassword).toBe(400);
      }
      expect(await snapshotFingerprint()).toEqual(before);
    });
  });

  describe("roles", () => {
    const post = (form: Record<string, string>) =>
      call(adminUsers.action, makeRequest("/admin/users", { cookie, form }));

    it("adds an account with a role and changes it; the role applies on its next request", async () => {
      const added = await post({ intent: "add", role: "sales", ...SECOND });
      expect(added.status).toBe(302);
      const [row] = await database.db.select().from(users).where(eq(users.email, SECOND.email));
      expect(row.role).toBe("sales");
      const theirs = await sessionCookieFor(row.id);
      // A password set by someone else is changed first, before anything else opens.
      expect(row.mustChangePassword).toBe(true);
      expect(
        (await call(dashboard.loader, makeRequest("/admin", { cookie: theirs }))).location,
      ).toBe("/admin/account");
      const own = "le mot de passe que je choisis";
      const changedPassword = await call(
        account.action,
        makeRequest("/admin/account", {
          cookie: theirs,
          form: { currentPassword: SECOND.password, newPassword: own, confirmPassword: own },
        }),
      );
      expect(changedPassword.status).toBe(302);
      expect(
        (await call(dashboard.loader, makeRequest("/admin", { cookie: theirs }))).location,
      ).toBe("/admin/contacts");

      const changed = await post({ intent: "role", id: String(row.id), role: "catalogue" });
      expect(changed.status).toBe(302);
      expect(changed.headers.get("set-cookie")).toContain("flash=roleChanged");
      // The change ends the account's sessions (issue 28): it signs in again under its new role.
      expect(
        (await call(dashboard.loader, makeRequest("/admin", { cookie: theirs }))).location,
      ).toBe("/auth?redirectTo=%2Fadmin");
      expect(await database.db.select().from(sessions).where(eq(sessions.userId, row.id))).toEqual(
        [],
      );
      const again = await sessionCookieFor(row.id);
      expect(
        (await call(dashboard.loader, makeRequest("/admin", { cookie: again }))).location,
      ).toBe("/admin/offers");
      const page = (await call(adminUsers.loader, makeRequest("/admin/users", { cookie })))
        .data as Awaited<ReturnType<typeof adminUsers.loader>>;
      expect(page.admins.map((a) => [a.email, a.role])).toEqual([
        [ADMIN.email, "admin"],
        [SECOND.email, "catalogue"],
      ]);
    });

    it("refuses one's own role, an unknown role or account, changing nothing", async () => {
      const second = await createAdmin(SECOND);
      const before = await snapshotFingerprint();
      const self = await post({ intent: "role", id: String(first.id), role: "sales" });
      expect(self.status).toBe(409);
      expect(JSON.stringify(self.data)).toContain("Vous ne pouvez pas changer votre propre rôle.");
      expect((await post({ intent: "role", id: String(second.id), role: "root" })).status).toBe(
        400,
      );
      expect((await post({ intent: "role", id: "424242", role: "sales" })).status).toBe(404);
      expect(await snapshotFingerprint()).toEqual(before);
    });
  });

  describe("/admin/account", () => {
    const change = (fields: Record<string, string>, as = cookie) =>
      call(account.action, makeRequest("/admin/account", { cookie: as, form: fields }));

    it("changes the password and signs out the other sessions only", async () => {
      const other = await sessionCookieFor(first.id);
      const second = await createAdmin(SECOND);
      const secondCookie = await sessionCookieFor(second.id);
      const outcome = await change({
        currentPassword: ADMIN.password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/admin/account");
      expect(outcome.headers.get("set-cookie")).toContain("flash=passwordChanged");
      expect(await isSignedIn(cookie)).toBe(true);
      expect(await isSignedIn(other)).toBe(false);
      // Another administrator's sessions are not touched.
      expect(await isSignedIn(secondCookie)).toBe(true);
      expect(await findSessionUser(token(cookie), database.db)).toBeDefined();
      const [row] = await database.db.select().from(users).where(eq(users.id, first.id));
      expect(await verifyPassword(row.passwordHash, NEW_PASSWORD)).toBe(true);
      expect(await verifyPassword(row.passwordHash, ADMIN.password)).toBe(false);
    });

    it("refuses a wrong current password, a mismatch or a short one, changing nothing", async () => {
      const other = await sessionCookieFor(first.id);
      const cases: [Record<string, string>, string][] = [
        [
          {
            currentPassword: "pas le bon mot de passe",
            newPassword: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          },
          "Le mot de passe actuel est incorrect.",
        ],
        [
          {
            currentPassword: ADMIN.password,
            newPassword: NEW_PASSWORD,
            confirmPassword: `${NEW_PASSWORD}!`,
          },
          "Les deux nouveaux mots de passe ne correspondent pas.",
        ],
        [
          { currentPassword: ADMIN.password, newPassword: "court", confirmPassword: "court" },
          "au moins 12 caractères",
        ],
        [
          {
            currentPassword: ADMIN.password,
            newPassword: ADMIN.password,
            confirmPassword: ADMIN.password,
          },
          "doit être différent",
        ],
        [
          { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
          "Veuillez saisir votre mot de passe actuel.",
        ],
      ];
      const [before] = await database.db.select().from(users).where(eq(users.id, first.id));
      for (const [form, message] of cases) {
        const outcome = await change(form);
        expect(outcome.status, message).toBe(400);
        expect(JSON.stringify(outcome.data)).toContain(message);
        expect(JSON.stringify(outcome.data)).not.toContain(NEW_PASSWORD);
      }
      const [after] = await database.db.select().from(users).where(eq(users.id, first.id));
      expect(after.passwordHash).toBe(before.passwordHash);
      expect(await isSignedIn(other)).toBe(true);
    });

    it("limits guesses of the current password like sign-in", async () => {
      for (let i = 0; i < 5; i++) {
        const wrong = await change({
          currentPassword: `mauvais ${i}`,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(wrong.status).toBe(400);
      }
      const blocked = await change({
        currentPassword: ADMIN.password,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(blocked.status).toBe(429);
      expect(JSON.stringify(blocked.data)).toContain("Trop de tentatives");
      const [row] = await database.db.select().from(users).where(eq(users.id, first.id));
      expect(await verifyPassword(row.passwordHash, ADMIN.password)).toBe(true);
    });
  });
});
