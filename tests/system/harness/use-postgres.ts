import { afterAll, beforeAll } from "vitest";
import {
  createPostgresDatabase,
  createTwoRoleDatabase,
  postgresAvailable,
  type TestDatabase,
  type TwoRoleDatabase,
  withClient,
} from "../../support/database";
import { lateBound } from "../../support/late-bound";
import { sleep } from "../support";
import type { ServerProcess } from "./server-process";

/** Whether the shared PostgreSQL server answers (the PostgreSQL blocks are skipped otherwise). */
export const hasPostgres = await postgresAvailable();

/**
 * A fresh PostgreSQL database for a describe block, and a list for the servers its tests start on
 * it: after the last test they are stopped, then the database is dropped. `twoRoles`: the database
 * of docs/production.md, an owner role (`migrationUrl`, MIGRATION_DATABASE_URL) and a server role
 * (`url`, DATABASE_URL), both dropped after.
 */
export function usePostgresServers(prefix: string): {
  database: TestDatabase;
  servers: ServerProcess[];
};
export function usePostgresServers(
  prefix: string,
  options: { twoRoles: true },
): { database: TwoRoleDatabase; servers: ServerProcess[] };
export function usePostgresServers(
  prefix: string,
  options: { twoRoles?: boolean } = {},
): {
  database: TestDatabase;
  servers: ServerProcess[];
} {
  let database: TestDatabase | undefined;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = options.twoRoles
      ? await createTwoRoleDatabase(prefix)
      : await createPostgresDatabase(prefix);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });
  return {
    database: lateBound(
      () => database,
      "usePostgresServers(): the database is there in tests only",
    ),
    servers,
  };
}

export type QueueCount = { status: string; attempts: number; n: number };

/**
 * The rows of a queue table by status and attempts, once every row has `status` (or after about
 * 30 s, for the test to show what was left).
 */
export async function settledQueue(
  databaseUrl: string,
  table: "mail_outbox" | "webhook_deliveries",
  status: string,
): Promise<QueueCount[]> {
  const counts = () =>
    withClient(databaseUrl, async (c) => {
      const { rows } = await c.query<QueueCount>(
        `select status::text as status, attempts, count(*)::int as n from ${table} group by 1, 2`,
      );
      return rows;
    });
  for (let i = 0; (await counts()).some((r) => r.status !== status) && i < 600; i++)
    await sleep(50);
  return counts();
}
