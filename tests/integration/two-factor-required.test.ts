import { Secret, TOTP } from "otpauth";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as account from "../../app/routes/admin/account";
import * as dashboard from "../../app/routes/admin/dashboard";
import * as layout from "../../app/routes/admin/layout";
import * as offers from "../../app/routes/admin/offers";
import * as twoFactor from "../../app/routes/admin/two-factor";
import { testDatabaseKind } from "../support/database";
import { ADMIN, call, makeRequest } from "../support/admin";
import { useAdminSuite } from "../support/admin-suite";

// ADMIN_REQUIRE_2FA=true (the default when SITE_URL is https://): an account without a second
// factor is sent to enrolment before anything else. Set before the app's modules read the env.
vi.hoisted(() => {
  process.env.ADMIN_REQUIRE_2FA = "true";
});

const { createAdmin, sessionCookieFor } = useAdminSuite();

describe(`second factor required (${testDatabaseKind})`, () => {
  let cookie: string;
  beforeEach(async () => {
    cookie = await sessionCookieFor((await createAdmin()).id);
  });

  it("sends an account without it to enrolment first, and lets it in once enrolled", async () => {
    for (const path of ["/admin", "/admin/account"]) {
      const fn = path === "/admin" ? dashboard.loader : account.loader;
      const outcome = await call(fn, makeRequest(path, { cookie }));
      expect(outcome.status, path).toBe(302);
      expect(outcome.location, path).toBe("/admin/account/2fa");
    }
    const write = await call(
      offers.action,
      makeRequest("/admin/offers", { cookie, form: { intent: "delete", id: "1" } }),
    );
    expect(write.status).toBe(403);
    // The enrolment page and its layout open.
    expect((await call(layout.loader, makeRequest("/admin/account/2fa", { cookie }))).status).toBe(
      200,
    );
    const page = await call(twoFactor.loader, makeRequest("/admin/account/2fa", { cookie }));
    const { key } = page.data as { key: string };
    expect(page.data).toMatchObject({ required: true });
    const code = new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, "")) }).generate();
    const done = await call(
      twoFactor.action,
      makeRequest("/admin/account/2fa", {
        cookie,
        form: { currentPassword: ADMIN.password, code },
      }),
    );
    expect(done.status).toBe(200);
    expect((await call(dashboard.loader, makeRequest("/admin", { cookie }))).status).toBe(200);
  });
});
