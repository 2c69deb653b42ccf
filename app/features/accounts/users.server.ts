import { randomBytes } from "node:crypto";
import { asc, count, eq, inArray, sql } from "drizzle-orm";
import { adminCredentialsSchema, emailSchema, issuesToText } from "./credentials";
import { firstStartNotice } from "./first-start-notice";
import { isRole, type Role } from "./roles";
import { db, type Database } from "~/platform/db.server";
import { journal, type Journaled } from "~/platform/journal.server";
import { log } from "~/platform/log.server";
import { hashPassword } from "./password.server";
import { passwordPolicyProblem } from "./password-policy.server";
import { sessions, users } from "~/platform/schema.server";

export type AdminUser = { id: number; email: string; role: Role };

export class InvalidCredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidCredentialsError";
  }
}

export async function findUserByEmail(email: string, database: Database = db()) {
  const [user] = await database.select().from(users).where(eq(users.email, email)).limit(1);
  return user;
}

/** The address of account `id` (a mail about its security), or undefined when it is gone. */
export async function accountEmail(id: number, database: Database = db()) {
  const [user] = await database.select({ email: users.email }).from(users).where(eq(users.id, id));
  return user?.email;
}

export async function countUsers(database: Database = db()): Promise<number> {
  const [{ n }] = await database.select({ n: count() }).from(users);
  return n;
}

/**
 * Creates an administrator, or resets the password of an existing one (and signs it out
 * everywhere). Throws InvalidCredentialsError with a French message for a bad e-mail or password.
 */
export async function upsertAdmin(
  credentials: { email: string; password: string },
  database: Database = db(),
): Promise<{ user: AdminUser; created: boolean }> {
  const parsed = adminCredentialsSchema.safeParse(credentials);
  if (!parsed.success) throw new InvalidCredentialsError(issuesToText(parsed.error));
  const problem = passwordPolicyProblem(parsed.data.password, parsed.data.email);
  if (problem) throw new InvalidCredentialsError(problem);
  const passwordHash = await hashPassword(parsed.data.password);
  return database.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ email: parsed.data.email, passwordHash, role: "admin" })
      .onConflictDoUpdate({
        target: users.email,
        set: { passwordHash, role: "admin", mustChangePassword: false, updatedAt: sql`now()` },
      })
      // xmax is 0 for a freshly inserted row, non-zero for an updated one.
      .returning({ id: users.id, email: users.email, inserted: sql<boolean>`(xmax = 0)` });
    if (!row.inserted) await tx.delete(sessions).where(eq(sessions.userId, row.id));
    return { user: { id: row.id, email: row.email, role: "admin" }, created: row.inserted };
  });
}

/** A readable random password for a first start without ADMIN_PASSWORD (about 120 bits). */
export function generatePassword(): string {
  return randomBytes(15)
    .toString("base64url")
    .replace(/(.{5})(?=.)/g, "$1-");
}

/**
 * On a first start with no user at all: creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD,
 * or with a generated password printed once on the terminal. Called under the startup lock, so
 * instances starting together create it once; later starts change nothing.
 */
export async function ensureInitialAdmin(
  options: { email?: string; password?: string; defaultEmail: string; signInUrl?: string },
  database: Database = db(),
): Promise<{ email: string; generatedPassword?: string } | null> {
  if ((await countUsers(database)) > 0) return null;
  const email = options.email?.trim() ? options.email : options.defaultEmail;
  const emailCheck = emailSchema.safeParse(email);
  if (!emailCheck.success) {
    throw new InvalidCredentialsError(`ADMIN_EMAIL : ${issuesToText(emailCheck.error)}`);
  }
  const generatedPassword = options.password ? undefined : generatePassword();
  const password = options.password ?? generatedPassword!;
  const passwordCheck = adminCredentialsSchema.shape.password.safeParse(password);
  if (!passwordCheck.success) {
    throw new InvalidCredentialsError(`ADMIN_PASSWORD : ${issuesToText(passwordCheck.error)}`);
  }
  const problem = options.password ? passwordPolicyProblem(password, emailCheck.data) : null;
  if (problem) throw new InvalidCredentialsError(`ADMIN_PASSWORD : ${problem}`);
  const passwordHash = await hashPassword(password);
  // One statement: only the first of several concurrent starts inserts anything.
  const inserted = await database.execute(sql`
    insert into ${users} (email, password_hash, role, must_change_password)
    select ${emailCheck.data}, ${passwordHash}, 'admin', ${generatedPassword !== undefined}
    where not exists (select 1 from ${users})
    on conflict (email) do nothing
    returning id`);
  if (inserted.rows.length === 0) return null;
  if (generatedPassword) {
    // The structured log redacts passwords (rightly): the password goes to the terminal once, in
    // a plain block on stderr, and never into a log line.
    process.stderr.write(
      firstStartNotice({
        email: emailCheck.data,
        password: generatedPassword,
        signInUrl: options.signInUrl ?? "/auth",
      }),
    );
    log.warn(
      "first start: administrator created with a generated password, printed once on the terminal (stderr) in a framed block; change it with npm run admin:create",
      { email: emailCheck.data },
    );
  } else {
    log.info("first start: administrator created from ADMIN_EMAIL", { email: emailCheck.data });
  }
  return { email: emailCheck.data, generatedPassword };
}

/** The accounts of the admin area with their role, oldest first (the first is usually admin:create's). */
export async function listUsers(database: Database = db()) {
  const rows = await database
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      totpEnabledAt: users.totpEnabledAt,
    })
    .from(users)
    .orderBy(asc(users.createdAt), asc(users.id));
  return rows.flatMap(({ totpEnabledAt, ...row }) =>
    isRole(row.role) ? [{ ...row, role: row.role, secondFactor: totpEnabledAt !== null }] : [],
  );
}

/** The Administrateur accounts only. */
export async function listAdmins(database: Database = db()) {
  return (await listUsers(database)).filter((user) => user.role === "admin");
}

export type AddAdminResult = { kind: "added"; user: AdminUser } | { kind: "duplicate" };

/**
 * Adds an account from the admin area. Unlike admin:create, an existing e-mail is refused
 * (`duplicate`), never reset: one administrator cannot take over another's account.
 * The e-mail and password are already validated (adminCredentialsSchema).
 */
export async function addAdmin(
  credentials: { email: string; password: string; role?: Role },
  change: Journaled,
  database: Database = db(),
): Promise<AddAdminResult> {
  const passwordHash = await hashPassword(credentials.password, { priority: true });
  const role = credentials.role ?? "admin";
  return database.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ email: credentials.email, passwordHash, role, mustChangePassword: true })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email });
    if (!row) return { kind: "duplicate" as const };
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "user-added",
      target: `${row.email} (${role})`,
    });
    return { kind: "added" as const, user: { ...row, role } };
  });
}

/**
 * Locks every Administrateur row (in id order, so concurrent changes run one after the other and
 * each sees the others' outcome) and gives their ids.
 */
async function lockAdmins(tx: Parameters<Parameters<Database["transaction"]>[0]>[0]) {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(asc(users.id))
    .for("update");
  return new Set(admins.map((a) => a.id));
}

export type RemoveAdminResult = { kind: "removed" | "self" | "last" | "missing" };

/**
 * Removes account `targetId` on behalf of Administrateur `change.actor`: never oneself, never the
 * last Administrateur. Two administrators removing each other at once leave one (lockAdmins). The
 * removed account's sessions go with the row (on delete cascade); the journal entry is written in
 * the same transaction.
 */
export async function removeAdmin(
  targetId: number,
  change: Journaled,
  database: Database = db(),
): Promise<RemoveAdminResult> {
  const actorId = change.actor.id;
  if (actorId === targetId) return { kind: "self" };
  return database.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const [target] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, targetId))
      .for("update");
    if (!target) return { kind: "missing" };
    // An actor removed or demoted in the meantime acts no more.
    if (!admins.has(actorId) || (admins.has(targetId) && admins.size <= 1)) return { kind: "last" };
    await tx.delete(users).where(eq(users.id, targetId));
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "user-removed",
      target: `compte ${targetId}`,
    });
    return { kind: "removed" };
  });
}

/** Roles whose accounts can own contact requests (issue 22); users.role is managed elsewhere. */
export const OWNER_ROLES = ["admin", "sales"] as const;

/** Accounts a request can be assigned to ('Attribuer à'), by e-mail. */
export function listAssignableUsers(
  database: Database = db(),
): Promise<Pick<AdminUser, "id" | "email">[]> {
  return database
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.role, [...OWNER_ROLES]))
    .orderBy(asc(users.email));
}

export type ChangeRoleResult = {
  kind: "changed" | "unchanged" | "self" | "last" | "missing";
  from?: Role;
};

/**
 * Gives account `targetId` another role, on behalf of Administrateur `change.actor`: never one's
 * own (nobody demotes themselves by mistake), never leaving no Administrateur. In the same
 * transaction (issue 28) the account's sessions end (it signs in again under its new role) and
 * the journal gets its entry.
 */
export async function changeRole(
  targetId: number,
  role: Role,
  change: Journaled,
  database: Database = db(),
): Promise<ChangeRoleResult> {
  const actorId = change.actor.id;
  if (actorId === targetId) return { kind: "self" };
  return database.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const [target] = await tx
      .select({ role: users.role })
      .from(users)
      .where(eq(users.id, targetId))
      .for("update");
    if (!target || !isRole(target.role)) return { kind: "missing" };
    if (!admins.has(actorId)) return { kind: "last" };
    if (target.role === role) return { kind: "unchanged", from: target.role };
    await tx
      .update(users)
      .set({ role, updatedAt: sql`now()` })
      .where(eq(users.id, targetId));
    await tx.delete(sessions).where(eq(sessions.userId, targetId));
    await journal.recordWithChange(tx, change.context, {
      actor: change.actor,
      action: "role-changed",
      target: `compte ${targetId} : ${target.role} → ${role}`,
    });
    return { kind: "changed", from: target.role };
  });
}
