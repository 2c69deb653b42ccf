import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import * as contactPage from "../../app/routes/admin/contact-request";
import * as adminContacts from "../../app/routes/admin/contacts";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import { contactRequests } from "../../app/platform/schema.server";
import type { OpenTestDatabase } from "./database";
import { call, makeRequest } from "./admin";

export type PageData = Awaited<ReturnType<typeof adminContacts.loader>>;
export type DetailData = Awaited<ReturnType<typeof contactPage.loader>>;

/**
 * The request desk's pages as the signed-in administrator reads and posts them (`cookie()` gives
 * the session of the test under way), and requests made at a chosen age.
 */
export function contactDesk(database: OpenTestDatabase, cookie: () => string) {
  async function page(path: string): Promise<PageData> {
    const outcome = await call(adminContacts.loader, makeRequest(path, { cookie: cookie() }));
    expect(outcome.status, `${path} -> ${outcome.location}`).toBe(200);
    return outcome.data as PageData;
  }

  const names = async (path: string) => (await page(path)).requests.map((r) => r.name);

  async function detail(id: number | string) {
    return call(
      (args: { request: Request; context: unknown }) =>
        contactPage.loader({ ...args, params: { id: String(id) } } as never),
      makeRequest(`/admin/contacts/${id}`, { cookie: cookie() }),
    );
  }

  /** Posts to the request's page as the browser of the site would. */
  async function post(id: number | string, form: Record<string, string>, options = {}) {
    return call(
      (args: { request: Request; context: unknown }) =>
        contactPage.action({ ...args, params: { id: String(id) } } as never),
      makeRequest(`/admin/contacts/${id}`, { cookie: cookie(), form, ...options }),
    );
  }

  async function request(
    name: string,
    offer: number | null,
    minutesAgo: number,
    extra: { message?: string; phone?: string | null; spam?: boolean } = {},
  ) {
    const { id } = await createContactRequest(
      {
        name,
        email: `${name.toLowerCase().replace(/\W/g, "")}@example.fr`,
        phone: extra.phone !== undefined ? extra.phone : name === "Alice" ? "06 12 34 56 78" : null,
        message: extra.message ?? `Bonjour,\nje suis ${name}.`,
        offer,
      },
      undefined,
      { suspectedSpam: extra.spam ?? false },
    );
    const at = new Date(Date.now() - minutesAgo * 60_000);
    await database.db
      .update(contactRequests)
      .set({ createdAt: at, updatedAt: at })
      .where(eq(contactRequests.id, id));
    return id;
  }

  /** n requests in one statement, one minute apart (name 'Lead 1' is the oldest). */
  async function many(n: number, message = "m") {
    await database.db.execute(
      sql`insert into contact_requests (name, email, message, created_at, updated_at)
          select 'Lead ' || i, 'lead' || i || '@example.fr', ${message},
                 now() - ((${n} - i) || ' minutes')::interval, now()
          from generate_series(1, ${n}) as i`,
    );
  }
  return { page, names, detail, post, request, many };
}
