// Admin accounts: users, second factor, sessions, password resets, the audit journal.
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { at, createdAt, identity, timestamps } from "./columns.server";

export const users = pgTable(
  "users",
  {
    id: identity(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").notNull().default("admin"),
    // Second factor (issue 20): the TOTP key once enrolled, the key being enrolled (never sent
    // back by a form), and the last 30-second step accepted (a code works once).
    totpSecret: text("totp_secret"),
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: at("totp_enabled_at"),
    totpLastStep: integer("totp_last_step"),
    // A password someone else chose (generated at first start, set in Administrateurs): the
    // account changes it at its first sign-in before anything else.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    // The day (Europe/Paris, YYYY-MM-DD) of the last morning digest of follow-ups (issue 40).
    digestSentOn: date("digest_sent_on", { mode: "string" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

/** An account a row names for what it did: the row stays, the account null, once it is removed. */
export const byUser = <N extends string>(name: N) =>
  integer(name).references((): AnyPgColumn => users.id, { onDelete: "set null" });

/** Single-use recovery codes of a second factor, salted SHA-256 (80 random bits each). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: identity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: at("used_at"),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the token sent in the cookie: a leaked table does not leak usable sessions.
    idHash: text("id_hash").primaryKey(),
    // What `Mon compte` names a session by (Révoquer): never the hash.
    publicId: integer("public_id").generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    // Absolute end (SESSION_MAX_HOURS after sign-in); the idle end is last_seen_at + SESSION_IDLE_MINUTES.
    expiresAt: at("expires_at").notNull(),
    lastSeenAt: at("last_seen_at").notNull().defaultNow(),
    // When the account last proved who it is here (sign-in or `Confirmez votre identité`).
    authenticatedAt: at("authenticated_at").notNull().defaultNow(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    // Password checked, second factor not yet: opens nothing but the code step of /auth.
    secondFactorPending: boolean("second_factor_pending").notNull().default(false),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
    uniqueIndex("sessions_public_id_unique").on(t.publicId),
  ],
);

/**
 * `Mot de passe oublié ?` (issue 20): one row per link mailed. Only the SHA-256 of the link's
 * token is kept; a link works once (used_at), until expires_at (30 minutes), and a newer request
 * of the same account deletes the older unused ones.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: identity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
  },
  (t) => [
    uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash),
    index("password_resets_user_idx").on(t.userId),
    index("password_resets_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The journal of who did what in the admin area (issue 20): append-only. No foreign key, so that
 * removing an account changes no row; the account's e-mail is copied. A trigger (migration
 * `*_audit_journal_custom`) refuses UPDATE and DELETE but the retention's.
 */
export const auditJournal = pgTable(
  "audit_journal",
  {
    id: identity(),
    at: at("at").notNull().defaultNow(),
    actorId: integer("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    target: text("target"),
    ip: text("ip"),
    requestId: text("request_id"),
  },
  (t) => [
    index("audit_journal_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_journal_actor_idx").on(t.actorEmail, t.at.desc()),
    index("audit_journal_action_idx").on(t.action, t.at.desc()),
  ],
);

export type User = typeof users.$inferSelect;
export type PasswordReset = typeof passwordResets.$inferSelect;
