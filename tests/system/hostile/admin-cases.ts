// Admin actions (issue 4) in the same table shape. Cases marked `as: "admin"` are sent with a
// signed-in administrator's session cookie; the others with none or a forged one.
// By topic: admin-offer-cases.ts, admin-account-cases.ts, admin-desk-cases.ts.
import { urlencoded } from "../harness/http";
import { adminActionPosts, type ActionIds } from "../../support/admin-actions";
import { type Action, type HostileCase, type Vars } from "./cases";
import {
  ADMIN_USER_CASES,
  AUTH_CASES,
  NEW_PASSWORD,
  PASSWORD_RESET_CASES,
  UNAUTHENTICATED_CASES,
} from "./admin-account-cases";
import {
  ADMIN_READ_CASES,
  CONTACT_STATUS_CASES,
  MAIL_RETRY_CASES,
  PERSONAL_DATA_CASES,
  QUOTE_SEND_CASES,
} from "./admin-desk-cases";
import { ADMIN_CREDENTIALS } from "./admin-forms";
import { OFFER_CASES } from "./admin-offer-cases";

export const ADMIN_CASES: HostileCase[] = [
  ...OFFER_CASES,
  ...ADMIN_USER_CASES,
  ...CONTACT_STATUS_CASES,
  ...AUTH_CASES,
  ...PASSWORD_RESET_CASES,
  ...UNAUTHENTICATED_CASES,
  ...MAIL_RETRY_CASES,
  ...ADMIN_READ_CASES,
  ...PERSONAL_DATA_CASES,
  ...QUOTE_SEND_CASES,
];

/** The rows of loadVars() that the admin actions' forms name. */
const idsOf = (v: Vars): ActionIds => ({
  offerId: v.editableOfferId,
  contactId: v.contactId,
  contactEmail: "existante@example.fr",
  failedMailId: 1,
  secondAdminId: 1,
});

/**
 * Every action of the admin side with a body it would accept from the site itself: the sign-in's,
 * then every admin action of app/routes.ts with its forms (tests/support/admin-actions.ts), found
 * there without being listed.
 */
export const ADMIN_ACTIONS: Action[] = [
  { name: "sign-in", path: "/auth", body: urlencoded(ADMIN_CREDENTIALS) },
  {
    name: "password reset request",
    path: "/auth/mot-de-passe-oublie",
    body: urlencoded({ email: ADMIN_CREDENTIALS.email }),
  },
  {
    name: "password reset",
    path: "/auth/nouveau-mot-de-passe",
    body: urlencoded({
      token: "A".repeat(43),
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  },
  ...adminActionPosts().map((post): Action => ({
    name: post.name,
    path: (v) => post.url(idsOf(v)),
    body: (v) => urlencoded(post.form(idsOf(v))),
    as: "admin",
  })),
];

export { ADMIN_CREDENTIALS };
