import { randomBytes } from "node:crypto";
import type { Database } from "../../app/platform/db.server";
import {
  appState,
  contactNotes,
  contactOwnerChanges,
  contactRequestCounts,
  contactRequests,
  datacenters,
  contactStatusChanges,
  leaseRates,
  mailOutbox,
  offerAlerts,
  offers,
  passwordResets,
  quotes,
  requestMessages,
  rateLimits,
  replyTemplates,
  recoveryCodes,
  sessions,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "../../app/platform/schema.server";
import { createSession, hashSessionToken } from "../../app/features/accounts/sessions.server";
import { upsertAdmin } from "../../app/features/accounts/users.server";
import { fingerprint, readTables } from "./fingerprint";

// The routes log each sign-in and write; keep test output to warnings and errors.
process.env.LOG_LEVEL ??= "warn";

export const BASE = "http://localhost:3000";
export const ADMIN = { email: "admin@example.fr", password: "correct horse battery staple" };

/** A request as the browser of the site would send it (same origin unless told otherwise). */
export function makeRequest(
  path: string,
  options: {
    method?: string;
    cookie?: string;
    origin?: string | null;
    secFetchSite?: string;
    form?: Record<string, string>;
    base?: string;
  } = {},
): Request {
  const base = options.base ?? BASE;
  const method = options.method ?? (options.form ? "POST" : "GET");
  const headers = new Headers();
  if (options.cookie) headers.set("cookie", options.cookie);
  if (method !== "GET" && options.origin !== null) headers.set("origin", options.origin ?? base);
  if (options.secFetchSite) headers.set("sec-fetch-site", options.secFetchSite);
  return new Request(new URL(path, base), {
    method,
    headers,
    body: options.form ? new URLSearchParams(options.form) : undefined,
  });
}

export const testContext = { requestId: "test", cspNonce: "", clientIp: "203.0.113.7" };

export type Outcome = {
  status: number;
  location?: string;
  headers: Headers;
  data?: unknown;
};

type DataLike = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };

function isDataLike(value: unknown): value is DataLike {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit"
  );
}

function toOutcome(value: unknown): Outcome {
  if (value instanceof Response) {
    return {
      status: value.status,
      location: value.headers.get("location") ?? undefined,
      headers: value.headers,
    };
  }
  if (isDataLike(value)) {
    return {
      status: value.init?.status ?? 200,
      headers: new Headers(value.init?.headers),
      data: value.data,
    };
  }
  return { status: 200, headers: new Headers(), data: value };
}

/** Calls a route loader or action like React Router does, and says what the browser would get. */
export async function call(
  fn: (args: never) => unknown,
  request: Request,
  context: Record<string, unknown> = testContext,
  params: Record<string, string> = {},
): Promise<Outcome> {
  try {
    return toOutcome(await fn({ request, params, context } as never));
  } catch (thrown) {
    if (thrown instanceof Response || isDataLike(thrown)) return toOutcome(thrown);
    throw thrown;
  }
}

export async function createAdmin(database: Database, credentials = ADMIN) {
  return (await upsertAdmin(credentials, database)).user;
}

/** An administrator and a live session cookie for them, as after their sign-in. */
export async function signedInAdmin(database: Database, credentials = ADMIN) {
  const admin = await createAdmin(database, credentials);
  return { admin, cookie: await sessionCookieFor(admin.id, database) };
}

/** A live session cookie for `userId`, as after a sign-in. */
export async function sessionCookieFor(userId: number, database: Database): Promise<string> {
  const { token } = await createSession(userId, database);
  return `admin_session=${token}`;
}

/** A session that expired a minute ago, still in the table. */
export async function expiredSessionCookie(userId: number, database: Database): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await database.insert(sessions).values({
    idHash: hashSessionToken(token),
    userId,
    createdAt: new Date(Date.now() - 8 * 86_400_000),
    expiresAt: new Date(Date.now() - 60_000),
  });
  return `admin_session=${token}`;
}

/** Every table an admin route could change, the journal aside (snapshot's keys). */
const SNAPSHOT_TABLES = {
  offers,
  datacenters,
  leaseRates,
  contactRequests,
  users,
  sessions,
  appState,
  rateLimits,
  contactNotes,
  contactStatusChanges,
  mailOutbox,
  contactRequestCounts,
  contactOwnerChanges,
  quotes,
  offerAlerts,
  recoveryCodes,
  passwordResets,
  webhookEndpoints,
  webhookDeliveries,
  requestMessages,
  replyTemplates,
};

/** Every row that an admin route could change, in a stable order. */
export function snapshot(database: Database) {
  return readTables(database, SNAPSHOT_TABLES);
}

/**
 * What snapshot() reads, as one digest per table in one query (tests/support/fingerprint.ts):
 * equal exactly when snapshot() would read equal rows. For a test that must change nothing.
 */
export function snapshotFingerprint(database: Database): Promise<Record<string, string>> {
  return fingerprint(database, Object.values(SNAPSHOT_TABLES));
}
