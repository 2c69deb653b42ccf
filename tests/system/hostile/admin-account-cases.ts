// Hostile input on accounts: sign-in, password reset, writes without a session, administrators.
import { expect } from "vitest";
import { AUTH_LIMITS } from "../../../app/lib/limits";
import { urlencoded } from "../harness/http";
import { post, XSS_PAYLOADS, type HostileCase } from "./cases";
import type { Snapshot } from "./run";
import { ADMIN_CREDENTIALS, type Change, M, adminForms, adminGet, adminPost } from "./admin-forms";
import { OFFER } from "./admin-offer-cases";

const sessionsOnly =
  (check: (before: Snapshot["sessions"], after: Snapshot["sessions"]) => void): Change =>
  (before, after) => {
    expect({ ...after, sessions: [] }).toEqual({ ...before, sessions: [] });
    check(before.sessions, after.sessions);
  };

const signIn = (
  name: string,
  fields: Record<string, string>,
  status: number,
  message: string,
): HostileCase => post(`sign-in: ${name}`, "/auth", urlencoded(fields), { status, message });

export const AUTH_CASES: HostileCase[] = [
  signIn(
    "wrong password",
    { email: ADMIN_CREDENTIALS.email, password: "pas le bon mot de passe" },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "unknown e-mail",
    { email: "inconnu@example.fr", password: "x".repeat(20) },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "SQL in the e-mail",
    { email: "' OR '1'='1' --", password: "' OR '1'='1" },
    401,
    M.wrongCredentials,
  ),
  signIn(
    "e-mail over the limit",
    { email: `${"a".repeat(AUTH_LIMITS.email)}@example.fr`, password: "x" },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "password over the limit (argon2 input capped)",
    { email: ADMIN_CREDENTIALS.email, password: "x".repeat(AUTH_LIMITS.passwordMax + 1) },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "password of 200,000 characters",
    { email: ADMIN_CREDENTIALS.email, password: "x".repeat(200_000) },
    400,
    M.wrongCredentials,
  ),
  signIn(
    "NUL byte in the e-mail",
    { email: `${ADMIN_CREDENTIALS.email}\u0000`, password: ADMIN_CREDENTIALS.password },
    400,
    M.wrongCredentials,
  ),
  signIn("missing password", { email: ADMIN_CREDENTIALS.email }, 400, M.missingCredentials),
  signIn("missing both", {}, 400, M.missingCredentials),
  signIn(
    "script in the e-mail",
    { email: XSS_PAYLOADS[0], password: "x" },
    401,
    M.wrongCredentials,
  ),
  post(
    "sign-in: open redirect attempt, then a session",
    "/auth",
    urlencoded({ ...ADMIN_CREDENTIALS, redirectTo: "https://evil.example/admin" }),
    {
      status: 302,
      location: /^\/admin/,
      change: sessionsOnly((before, after) => expect(after).toHaveLength(before.length + 1)),
    },
  ),
  {
    name: "sign-in: JSON body",
    method: "POST",
    path: "/auth",
    contentType: "application/json",
    body: JSON.stringify(ADMIN_CREDENTIALS),
    expect: { status: [400, 415], message: /Veuillez saisir votre email|Format de requête/ },
  },
];

const resetRequest = (
  name: string,
  fields: Record<string, string>,
  status: number,
  message: string,
): HostileCase =>
  post(`password reset request: ${name}`, "/auth/mot-de-passe-oublie", urlencoded(fields), {
    status,
    message,
  });

export const NEW_PASSWORD = "une phrase secrète toute neuve";

const resetLink = (name: string, fields: Record<string, string>): HostileCase =>
  post(
    `password reset link: ${name}`,
    "/auth/nouveau-mot-de-passe",
    urlencoded({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...fields }),
    { status: 410, message: M.resetLinkInvalid },
  );

/** `Mot de passe oublié ?` (issue 20): the same answer for any address, no link without a token. */
export const PASSWORD_RESET_CASES: HostileCase[] = [
  resetRequest("unknown e-mail", { email: "inconnu@example.fr" }, 200, M.resetRequested),
  resetRequest("SQL in the e-mail", { email: "' OR '1'='1' --" }, 400, M.resetEmailInvalid),
  resetRequest(
    "e-mail over the limit",
    { email: `${"a".repeat(AUTH_LIMITS.email)}@example.fr` },
    400,
    M.resetEmailInvalid,
  ),
  resetRequest(
    "NUL byte in the e-mail",
    { email: `${ADMIN_CREDENTIALS.email}\u0000` },
    400,
    M.resetEmailInvalid,
  ),
  resetRequest("script in the e-mail", { email: XSS_PAYLOADS[0] }, 400, M.resetEmailInvalid),
  resetRequest("missing e-mail", {}, 400, "Veuillez saisir votre adresse e-mail."),
  {
    name: "password reset request: JSON body",
    method: "POST",
    path: "/auth/mot-de-passe-oublie",
    contentType: "application/json",
    body: JSON.stringify({ email: ADMIN_CREDENTIALS.email }),
    expect: { status: 415, message: /Format de requête/ },
  },
  resetLink("unknown token", { token: "A".repeat(43) }),
  resetLink("SQL in the token", { token: "' OR '1'='1' --" }),
  resetLink("token of 200,000 characters", { token: "A".repeat(200_000) }),
  resetLink("no token", {}),
  resetLink("password of 200,000 characters", {
    token: "A".repeat(43),
    newPassword: "x".repeat(200_000),
  }),
  {
    name: "password reset link: token in the query only, unknown",
    method: "GET",
    path: `/auth/nouveau-mot-de-passe?token=${"B".repeat(43)}`,
    expect: { status: 410, message: M.resetLinkInvalid },
  },
];

/** Writes without a valid session: refused, nothing changed. */
export const UNAUTHENTICATED_CASES: HostileCase[] = [
  ...(
    [
      ["no session", []],
      [
        "forged session cookie",
        [["Cookie", "admin_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]],
      ],
      ["session cookie with SQL", [["Cookie", "admin_session=' OR '1'='1"]]],
      ["malformed cookie header", [["Cookie", "admin_session=%E0%A4%A; ;;=;"]]],
    ] as [string, [string, string][]][]
  ).flatMap(([label, headers]): HostileCase[] => [
    post(
      `admin offer create with ${label}`,
      "/admin/offers",
      urlencoded({ intent: "create", ...OFFER }),
      { status: 401, message: M.unauthorized },
      { headers },
    ),
    post(
      `admin contact status with ${label}`,
      "/admin/contacts",
      (v) => urlencoded({ id: String(v.contactId), status: "cancelled" }),
      { status: 401, message: M.unauthorized },
      { headers },
    ),
  ]),
  post(
    "sign-out with a forged session",
    "/admin/logout",
    "",
    { status: 302 },
    { headers: [["Cookie", "admin_session=forged"]] },
  ),
];

const USER_GONE = "Cet administrateur n'existe plus.";

export const ADMIN_USER_CASES: HostileCase[] = [
  ...adminForms(
    "admin users add:",
    "/admin/users",
    { intent: "add", email: "nouveau@example.fr", password: "un mot de passe correct" },
    [
      ["e-mail not valid", { email: "pas-un-email" }, 400, "L'adresse e-mail n'est pas valide."],
      ["e-mail with markup", { email: XSS_PAYLOADS[0] }, 400, "L'adresse e-mail n'est pas valide."],
      [
        "e-mail taken",
        { email: ADMIN_CREDENTIALS.email.toUpperCase() },
        409,
        "Un administrateur utilise déjà cette adresse e-mail.",
      ],
      ["password too short", { password: "court" }, 400, "au moins 12 caractères"],
      ["password enormous", { password: "x".repeat(100_000) }, 400, "ne doit pas dépasser"],
    ],
  ),
  ...adminForms("admin users remove: id", "/admin/users", { intent: "remove" }, [
    ["not a number", { id: "abc" }, 400, USER_GONE],
    ["with SQL", { id: "1 OR 1=1" }, 400, USER_GONE],
    ["beyond a PostgreSQL integer", { id: "99999999999" }, 400, USER_GONE],
    ["unknown", { id: "999999" }, 404, USER_GONE],
  ]),
  ...adminForms(
    "webhook add:",
    "/admin/webhooks",
    { intent: "create", url: "https://93.184.216.34/hook", created: "on" },
    [
      ["no address", { url: "" }, 400, "Saisissez l'adresse du webhook."],
      ["not http", { url: "javascript:alert(1)" }, 400, "https://"],
      ["credentials", { url: "https://a:b@93.184.216.34/" }, 400, "identifiant"],
      ["http", { url: "http://93.184.216.34/hook" }, 400, "doit commencer par https://"],
      ["loopback", { url: "https://127.0.0.1:4000/hook" }, 400, "réseau local ou privé"],
      ["cloud metadata", { url: "https://169.254.169.254/latest" }, 400, "réseau local ou privé"],
      ["NAT64", { url: "https://[64:ff9b::a9fe:a9fe]/latest" }, 400, "réseau local ou privé"],
      ["mapped", { url: "https://[::ffff:127.0.0.1]/hook" }, 400, "réseau local ou privé"],
      ["no event", { created: "", updated: "" }, 400, "au moins un événement"],
      ["enormous", { url: `https://example.com/${"x".repeat(100_000)}` }, 400, "au plus"],
    ],
  ),
  ...adminForms("webhook", "/admin/webhooks", {}, [
    ["resend: id abc", { intent: "resend", id: "abc" }, 400, M.invalid],
    ["delete: id 1 OR 1=1", { intent: "delete", id: "1 OR 1=1" }, 400, M.invalid],
  ]),
  adminPost(
    "admin users: unknown intent",
    "/admin/users",
    urlencoded({ intent: "promote", id: "1" }),
    { status: 400, message: M.invalid },
  ),
  {
    name: "admin users: JSON body",
    method: "POST",
    path: "/admin/users",
    contentType: "application/json",
    as: "admin",
    body: JSON.stringify({ intent: "add", email: "json@example.fr", password: "x".repeat(20) }),
    expect: { status: 415, message: "Format de requête non pris en charge" },
  },
  ...adminForms(
    "admin account password:",
    "/admin/account",
    {
      currentPassword: ADMIN_CREDENTIALS.password,
      newPassword: "un nouveau mot de passe",
      confirmPassword: "un nouveau mot de passe",
    },
    [
      [
        "wrong current password",
        { currentPassword: "pas le bon mot de passe" },
        400,
        "Le mot de passe actuel est incorrect.",
      ],
      [
        "confirmation differs",
        { confirmPassword: "autre chose encore" },
        400,
        "Les deux nouveaux mots de passe ne correspondent pas.",
      ],
      [
        "new password too short",
        { newPassword: "court", confirmPassword: "court" },
        400,
        "au moins 12 caractères",
      ],
      [
        "current password enormous",
        { currentPassword: "x".repeat(100_000) },
        400,
        "Le mot de passe actuel est incorrect.",
      ],
    ],
  ),
  { name: "administrators page without session", path: "/admin/users", expect: { status: 302 } },
  { name: "account page without session", path: "/admin/account", expect: { status: 302 } },
  adminGet("admin users: junk remove parameter", "/admin/users?remove=%3Cscript%3E&remove=1", {
    status: 200,
  }),
];
