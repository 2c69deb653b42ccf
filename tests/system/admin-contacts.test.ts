import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAdmin } from "../support/admin";
import { testDatabaseKind } from "../support/database";
import { startAppServer, type AppServer } from "./harness/app-server";

// The contact requests' list and export through the real built server (issues 10 and 11): the
// list stays small with 50 requests of 5,000 characters, and the export is sent as it is read.
let app: AppServer;
let cookie: string;

const LONG = Array.from({ length: 50 }, (_, i) => `Ligne ${i} ${"é".repeat(90)}`).join("\n");

describe(`admin contact requests through the built server (${testDatabaseKind})`, () => {
  beforeAll(async () => {
    app = await startAppServer();
    const db = app.database.db;
    ({ cookie } = await signedInAdmin(db));
    // 3,000 older requests, then the 50 newest with everything filled in and 5,000-character
    // messages of two-byte letters (the first page: the heaviest a page of the list can be).
    await db.execute(
      sql`insert into contact_requests (name, email, phone, message, created_at)
          select 'Ancien ' || i, 'ancien' || i || '@example.fr', '06 12 34 56 78',
                 'Bonjour; "devis"' || chr(10) || '=cmd ' || i, now() - interval '1 day' - (i || ' seconds')::interval
          from generate_series(1, 3000) as i`,
    );
    await db.execute(
      sql`insert into contact_requests (name, email, phone, message, offer_id, offer_title, offer_reference, created_at)
          select 'Récent ' || i, 'recent' || i || '@example.fr', '+33 6 12 34 56 78', left(${LONG}, 5000),
                 o.id, o.title, o.reference, now() - (i || ' seconds')::interval
          from generate_series(1, 50) as i, (select id, title, reference from offers order by id limit 1) as o`,
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it("keeps the list under 120 KB of HTML and 5,000 elements with 50 long messages", async () => {
    const response = await fetch(`${app.baseUrl}/admin/contacts`, { headers: { cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const bytes = Buffer.byteLength(html);
    const elements = html.match(/<[a-zA-Z]/g)?.length ?? 0;
    console.log(
      `/admin/contacts, 50 requests of 5,000 characters: ${bytes} bytes, ${elements} elements`,
    );
    expect(html).toContain("Récent 1");
    expect(html).toContain("3050 demandes");
    // Issue 22: the table of 50 rows stays under 120 KB (181 KB for the cards before it).
    expect(bytes).toBeLessThan(120 * 1024);
    expect(elements).toBeLessThan(5_000);
  });

  it("streams the export: several chunks, no length announced, every row", async () => {
    const response = await fetch(`${app.baseUrl}/admin/contacts/export.csv`, {
      headers: { cookie, "accept-encoding": "identity" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(chunks.length).toBeGreaterThan(3);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(Buffer.concat(chunks));
    expect(text.startsWith("\uFEFFDate;Nom;")).toBe(true);
    const records = text.split(/\r\n(?=\d{2}\/\d{2}\/\d{4} )/);
    expect(records).toHaveLength(3051);
    // Then the configuration, the company, the SIREN, the VAT number and the origin (source,
    // medium, campaign, referring site: issue 42), empty for these requests.
    expect(text).toContain(`;"Bonjour; ""devis""\n=cmd 3000";;;;;;;;\r\n`);
  });

  it("gives anonymous and cross-site requests nothing", async () => {
    const anonymous = await fetch(`${app.baseUrl}/admin/contacts/export.csv`, {
      redirect: "manual",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toContain("/auth?redirectTo=");
    const forged = await fetch(`${app.baseUrl}/admin/contacts/1`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=status&status=completed",
    });
    expect(forged.status).toBe(403);
    const [{ n }] = (
      (await app.database.db.execute(
        sql`select count(*)::int as n from contact_requests where status <> 'pending'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(n).toBe(0);
  });
});
