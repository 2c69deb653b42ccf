import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./db.server";

// Two roles on PostgreSQL (issue 28, docs/production.md): the owner of the tables runs the
// migrations (MIGRATION_DATABASE_URL) and grants the server's role (DATABASE_URL) what the server
// uses: rows of every table, but on the journal only INSERT and SELECT, and its retention through
// purge_audit_journal() (migration 0012), which runs as the owner. The server's role then cannot
// update, delete, truncate, alter or drop the journal, nor turn its trigger off. The signed
// documents (issue 40) are held the same way, with purge_signed_documents().

/** The journal: append-only for the server's role. */
const JOURNAL = "audit_journal";
/** The tables the server's role may only insert into and read, with their retention function. */
const WRITE_ONCE = [
  { table: JOURNAL, purge: "purge_audit_journal(integer)" },
  { table: "signed_documents", purge: "purge_signed_documents()" },
] as const;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function rows<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  return (await db.execute<T>(query)).rows;
}

/** The role a connection acts as. */
export async function currentRole(db: Database): Promise<string> {
  const [{ role }] = await rows<{ role: string }>(db, sql`select current_user as role`);
  return role;
}

export class TableOwnershipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TableOwnershipError";
  }
}

/**
 * Before migrating as the owner: every table, sequence and view of the application must be the
 * owner's, or the migrations fail on the first one that is not (a database the server's role
 * created before MIGRATION_DATABASE_URL was set). Says what to run instead.
 */
export async function checkOwnership(owner: Database): Promise<void> {
  const foreign = await rows<{ role: string; n: number }>(
    owner,
    sql`select pg_get_userbyid(c.relowner) as role, count(*)::int as n
        from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where s.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'S', 'v', 'm')
          and c.relowner <> (select oid from pg_roles where rolname = current_user)
        group by 1 order by 1`,
  );
  if (foreign.length === 0) return;
  const me = await currentRole(owner);
  const statements = foreign
    .map((f) => `REASSIGN OWNED BY ${ident(f.role)} TO ${ident(me)};`)
    .join(" ");
  throw new TableOwnershipError(
    `MIGRATION_DATABASE_URL : ${foreign.map((f) => `${f.n} objet(s) appartiennent au rôle ${f.role}`).join(", ")}, ` +
      `pas au rôle des migrations (${me}). En superutilisateur, dans cette base : ${statements} ` +
      `puis redémarrez (docs/production.md, « Deux rôles »).`,
  );
}

/**
 * Grants the server's role what it needs, from the owner's connection, after the migrations of
 * each start (so tables added later are covered): SELECT, INSERT, UPDATE, DELETE on every table and
 * USAGE on every sequence of the application, then on the journal and the signed documents only
 * SELECT and INSERT (and USAGE on their sequences), EXECUTE on their retention functions, and read
 * access to the list of applied migrations (backups). Anything else granted before on them is
 * revoked.
 */
export async function grantServerRole(owner: Database, serverRole: string): Promise<void> {
  const role = sql.raw(ident(serverRole));
  await owner.execute(sql`grant usage on schema public to ${role}`);
  await owner.execute(
    sql`grant select, insert, update, delete on all tables in schema public to ${role}`,
  );
  await owner.execute(
    sql`revoke truncate, references, trigger on all tables in schema public from ${role}`,
  );
  await owner.execute(sql`grant usage on all sequences in schema public to ${role}`);
  for (const { table, purge } of WRITE_ONCE) {
    await owner.execute(sql`revoke all on ${sql.raw(table)} from ${role}`);
    await owner.execute(sql`grant select, insert on ${sql.raw(table)} to ${role}`);
    await owner.execute(sql`revoke all on sequence ${sql.raw(`${table}_id_seq`)} from ${role}`);
    await owner.execute(sql`grant usage on sequence ${sql.raw(`${table}_id_seq`)} to ${role}`);
    await owner.execute(sql`grant execute on function ${sql.raw(purge)} to ${role}`);
  }
  await owner.execute(sql`grant usage on schema drizzle to ${role}`);
  await owner.execute(sql`grant select on drizzle.__drizzle_migrations to ${role}`);
}

/**
 * The retention floors, written again by whoever migrates (the owner with two roles) as the
 * functions the purges read: the journal's from AUDIT_RETENTION_MONTHS (purge_audit_journal()
 * never deletes younger rows) and the signed documents' from SIGNED_QUOTE_RETENTION_YEARS
 * (purge_signed_documents() deletes nothing younger). (Functions rather than settings on the
 * purges: only a superuser may put a custom setting on a function; rather than a table: backups
 * would carry it.)
 */
export async function setRetentionFloors(
  owner: Database,
  floors: { journalMonths: number; signedYears: number },
): Promise<void> {
  const constant = (name: string, value: number) =>
    owner.execute(
      sql`create or replace function ${sql.raw(name)}() returns integer
          language sql stable set search_path = pg_catalog, pg_temp
          as ${sql.raw(`$$ select ${Math.max(1, Math.trunc(value))} $$`)}`,
    );
  await constant("audit_journal_retention_floor", floors.journalMonths);
  await constant("signed_documents_retention_years", floors.signedYears);
}

/** The floors as configured. */
export const retentionFloors = (e: {
  AUDIT_RETENTION_MONTHS: number;
  SIGNED_QUOTE_RETENTION_YEARS: number;
}) => ({ journalMonths: e.AUDIT_RETENTION_MONTHS, signedYears: e.SIGNED_QUOTE_RETENTION_YEARS });

/**
 * Whether the server's own connection can change the journal other than by appending: it owns the
 * table (or is a member of its owner's role) or is a superuser. True on PostgreSQL without
 * MIGRATION_DATABASE_URL, or with both URLs naming one role.
 */
export async function journalIsUnprotected(server: Database): Promise<boolean> {
  const [row] = await rows<{ unprotected: boolean }>(
    server,
    sql`select coalesce((select rolsuper from pg_roles where rolname = current_user), false)
          or pg_has_role(current_user, c.relowner, 'MEMBER') as unprotected
        from pg_class c where c.oid = to_regclass('public.audit_journal')`,
  );
  // No journal yet (an empty database): whoever migrates will own it.
  return row?.unprotected ?? true;
}

/**
 * How many of the migrations in the folder the database has not applied, by drizzle's own rule
 * (a migration is applied when the last recorded one is not older), read without creating
 * anything: the server's role may read drizzle.__drizzle_migrations, not create it.
 */
export async function pendingMigrationCount(
  db: Database,
  migrations: readonly { folderMillis: number }[],
): Promise<number> {
  const [{ last }] = await rows<{ last: string | null }>(
    db,
    sql`select case when to_regclass('drizzle.__drizzle_migrations') is null then null
          else (select max(created_at)::text from drizzle.__drizzle_migrations) end as last`,
  );
  return migrations.filter((m) => last === null || Number(last) < m.folderMillis).length;
}

export class PendingMigrationsError extends Error {
  constructor(count: number) {
    super(
      `${count} migration(s) en attente, que le rôle de DATABASE_URL ne peut pas appliquer (les ` +
        `tables appartiennent à un autre rôle) : définissez MIGRATION_DATABASE_URL, ou lancez ` +
        `npm run db:migrate avec MIGRATION_DATABASE_URL avant de démarrer (docs/production.md).`,
    );
    this.name = "PendingMigrationsError";
  }
}
