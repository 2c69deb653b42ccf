import { once } from "node:events";
import { createReadStream, createWriteStream, renameSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import { sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseHandle } from "./db.server";

/**
 * Logical backups that work the same on PGlite and PostgreSQL and restore into either: JSON lines.
 *
 *   {"format":"serveurpro-backup","version":1,"createdAt":...,"source":"pglite","migrations":[...]}
 *   {"table":"offers","columns":["id",...],"rows":14}     then 14 lines, one to_jsonb each
 *   ... one section per table of the public schema, parents before children (foreign keys)
 *   {"end":true,"tables":{"offers":14,...}}
 *
 * Rows are written and read back as PostgreSQL's own JSON text (jsonb, so one line each), never
 * parsed into JavaScript numbers or dates: `json_populate_recordset` turns them back into the
 * column types exactly.
 * The dump reads one snapshot (repeatable read), so it is consistent while servers keep writing
 * (PostgreSQL; an embedded directory can only be opened with its server stopped).
 */

export const BACKUP_FORMAT = "serveurpro-backup";
export const BACKUP_VERSION = 1;

type Header = {
  format: string;
  version: number;
  createdAt: string;
  source: DatabaseHandle["kind"];
  migrations: string[];
};
type Section = { table: string; columns: string[]; rows: number };
type Trailer = { end: true; tables: Record<string, number> };

export type TableCounts = Record<string, number>;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const table = (name: string) => sql.raw(`public.${ident(name)}`);

async function rows<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result = await db.execute<T>(query);
  return result.rows;
}

/**
 * Derived tables, kept by triggers from other tables (migration 0003): never dumped, and rebuilt
 * by those triggers while a restore inserts the rows they count.
 */
const DERIVED_TABLES = new Set(["contact_request_counts"]);

/** Tables of the public schema, each after the tables its foreign keys point to. */
export async function tablesInDependencyOrder(db: Database): Promise<string[]> {
  const names = (
    await rows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
    )
  )
    .map((r) => r.name)
    .filter((name) => !DERIVED_TABLES.has(name));
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`select ch.relname as child, pa.relname as parent from pg_constraint k
        join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
        join pg_namespace n on n.oid = ch.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return; // self or circular reference
    visiting.add(name);
    for (const e of edges) if (e.child === name && e.parent !== name) visit(e.parent);
    visiting.delete(name);
    ordered.push(name);
  };
  names.forEach(visit);
  return ordered;
}

/** Insertable columns (generated columns are left out: the database computes them). */
async function columnsOf(db: Database, name: string): Promise<string[]> {
  return (
    await rows<{ name: string }>(
      db,
      sql`select column_name as name from information_schema.columns
          where table_schema = 'public' and table_name = ${name} and is_generated = 'NEVER'
          order by ordinal_position`,
    )
  ).map((r) => r.name);
}

async function appliedMigrations(db: Database): Promise<string[]> {
  const [{ present }] = await rows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!present) return [];
  return (
    await rows<{ hash: string }>(
      db,
      sql`select hash from drizzle.__drizzle_migrations order by created_at, id`,
    )
  ).map((r) => r.hash);
}

function line(value: unknown): string {
  return JSON.stringify(value) + "\n";
}

async function write(out: Writable, text: string) {
  if (!out.write(text)) await once(out, "drain");
}

/** Writes a backup of the whole database to `file` (gzip when it ends in .gz); returns the counts. */
export async function backupDatabase(handle: DatabaseHandle, file: string): Promise<TableCounts> {
  const partial = `${file}.partial`;
  const fileStream = createWriteStream(partial, { mode: 0o600 }); // personal data inside
  const out: Writable = file.endsWith(".gz") ? createGzip() : fileStream;
  if (out !== fileStream) out.pipe(fileStream);
  const finished = once(fileStream, "close");
  const counts: TableCounts = {};
  try {
    await handle.db.transaction(
      async (db) => {
        const header: Header = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          source: handle.kind,
          migrations: await appliedMigrations(db),
        };
        await write(out, line(header));
        for (const name of await tablesInDependencyOrder(db)) {
          const columns = await columnsOf(db, name);
          const [{ n }] = await rows<{ n: number }>(
            db,
            sql`select count(*)::int as n from ${table(name)}`,
          );
          await write(out, line({ table: name, columns, rows: n } satisfies Section));
          await db.execute(
            sql`declare backup_rows no scroll cursor for
                select to_jsonb(t)::text as j from ${table(name)} t`,
          );
          let written = 0;
          for (;;) {
            const batch = await rows<{ j: string }>(db, sql`fetch 1000 from backup_rows`);
            if (batch.length === 0) break;
            for (const r of batch) await write(out, r.j + "\n");
            written += batch.length;
          }
          await db.execute(sql`close backup_rows`);
          if (written !== n) throw new Error(`${name}: ${written} rows read, ${n} counted`);
          counts[name] = n;
        }
        await write(out, line({ end: true, tables: counts } satisfies Trailer));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    out.end();
    await finished;
    renameSync(partial, file);
    return counts;
  } catch (error) {
    out.destroy();
    fileStream.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Tables whose first rows a migration writes: what an LOA financer asks (0023), synonyms (0025). */
const MIGRATION_DEFAULTS: ReadonlySet<string> = new Set([
  "lease_document_kinds",
  "search_synonyms",
]);

export class RestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreError";
  }
}

function readLines(file: string): AsyncIterator<string> {
  const input: Readable = file.endsWith(".gz")
    ? createReadStream(file).pipe(createGunzip())
    : createReadStream(file);
  return createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
}

/**
 * Restores a backup into `database`, which must already be migrated to the current schema (the
 * caller holds the start-up lock, so that no instance seeds the database meanwhile). Refuses a
 * database that holds any row unless `force` (then everything is replaced). All or nothing: one
 * transaction. Identity sequences continue after the restored ids, and the catalogue version
 * moves forward so that every instance drops what it cached.
 */
export async function restoreDatabase(
  database: Database,
  file: string,
  options: { force?: boolean } = {},
): Promise<TableCounts> {
  const lines = readLines(file);
  const next = async (what: string): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new RestoreError(`Sauvegarde tronquée : ${what} manquant (${file}).`);
    return r.value;
  };
  let header: Header;
  try {
    header = JSON.parse(await next("en-tête")) as Header;
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`${file} n'est pas une sauvegarde lisible.`);
  }
  if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION) {
    throw new RestoreError(`${file} n'est pas une sauvegarde ${BACKUP_FORMAT} v${BACKUP_VERSION}.`);
  }
  const counts: TableCounts = {};
  await database.transaction(async (db) => {
    const known = new Set(await appliedMigrations(db));
    const unknown = header.migrations.filter((h) => !known.has(h));
    if (unknown.length > 0) {
      throw new RestoreError(
        `La sauvegarde vient d'une version plus récente de l'application (${unknown.length} ` +
          `migration(s) inconnue(s)) : mettez l'application à jour avant de la restaurer.`,
      );
    }
    const tables = await tablesInDependencyOrder(db);
    const nonEmpty: string[] = [];
    for (const name of tables) {
      const [{ any }] = await rows<{ any: boolean }>(
        db,
        sql`select exists (select 1 from ${table(name)}) as any`,
      );
      if (any) nonEmpty.push(name);
    }
    const [{ version: before }] = await rows<{ version: string }>(
      db,
      sql`select coalesce((select value from app_state where key = 'catalogue_version'), '0') as version`,
    );
    // Rows the migrations wrote (defaults the administrator edits) do not make a base "used":
    // the backup's own rows replace them.
    const used = nonEmpty.filter((name) => !MIGRATION_DEFAULTS.has(name));
    if (used.length > 0 && !options.force) {
      throw new RestoreError(
        `La base cible n'est pas vide (${used.join(", ")}) : restaurez dans une base vide, ` +
          `ou ajoutez --force pour remplacer tout son contenu.`,
      );
    }
    const emptied = used.length > 0 ? tables : nonEmpty;
    if (emptied.length > 0) {
      await db.execute(
        sql`truncate ${sql.raw(emptied.map((t) => `public.${ident(t)}`).join(", "))} restart identity cascade`,
      );
    }

    for (;;) {
      const text = await next("fin de la sauvegarde");
      const item = JSON.parse(text) as Section | Trailer;
      if ("end" in item) {
        for (const [name, n] of Object.entries(item.tables)) {
          if (counts[name] !== n)
            throw new RestoreError(`${name} : ${counts[name]} lignes sur ${n}.`);
        }
        break;
      }
      const { table: name, columns, rows: total } = item;
      if (!tables.includes(name)) {
        throw new RestoreError(`Table ${name} inconnue de ce schéma.`);
      }
      const targetColumns = new Set(await columnsOf(db, name));
      const missing = columns.filter((c) => !targetColumns.has(c));
      if (missing.length > 0) throw new RestoreError(`${name} : colonnes inconnues ${missing}.`);
      const list = sql.raw(columns.map(ident).join(", "));
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await db.execute(
          sql`insert into ${table(name)} (${list}) overriding system value
              select ${list} from json_populate_recordset(null::${table(name)}, ${`[${batch.join(",")}]`}::json)`,
        );
        batch = [];
      };
      for (let i = 0; i < total; i++) {
        batch.push(await next(`ligne ${i + 1} de ${name}`));
        if (batch.length === 500) await flush();
      }
      await flush();
      counts[name] = total;
    }

    // Identity and serial columns continue after the highest restored value.
    const sequences = await rows<{ tbl: string; col: string }>(
      db,
      sql`select table_name as tbl, column_name as col from information_schema.columns
          where table_schema = 'public'
            and (is_identity = 'YES' or column_default like 'nextval(%')`,
    );
    for (const { tbl, col } of sequences) {
      await db.execute(
        sql`select setval(pg_get_serial_sequence(${`public.${ident(tbl)}`}, ${col}),
                          coalesce(max(${sql.raw(ident(col))}), 1), max(${sql.raw(ident(col))}) is not null)
            from ${table(tbl)}`,
      );
    }
    // Instances may have cached the catalogue under a version number: never reuse one.
    await db.execute(
      sql`insert into app_state (key, value) values ('catalogue_version', ${String(BigInt(before) + 1n)})
          on conflict (key) do update
          set value = (greatest(app_state.value::bigint, ${before}::bigint) + 1)::text, updated_at = now()`,
    );
  });
  return counts;
}
