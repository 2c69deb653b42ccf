import { describe, expect, it } from "vitest";
import { contactRequests, mailOutbox, offers } from "../../app/platform/schema.server";
import { call, makeRequest } from "../support/admin";
import { buildOffer } from "../support/offers";
import { useTestDatabase } from "../support/use-test-database";

// Two accepted posts per address and window: a replay must not count as a third.
process.env.CONTACT_RATE_LIMIT = "2";

const contactRoute = await import("../../app/routes/public/contact");

const database = useTestDatabase({ truncate: true });
const context = { requestId: "test", cspNonce: "", clientIp: "203.0.113.40" };

const FORM = {
  name: "Jeanne Martin",
  email: "jeanne@example.fr",
  phone: "",
  message: "Bonjour, un devis svp",
  offer: "",
};

async function tokenOfPage(): Promise<string> {
  const page = await call(contactRoute.loader as never, makeRequest("/contact"), context);
  expect(page.headers.get("cache-control")).toBe("private, no-store");
  return (page.data as { token: string }).token;
}

const post = (form: Record<string, string>) =>
  call(contactRoute.action as never, makeRequest("/contact", { form }), context);

describe("the contact form's idempotency token", () => {
  it("gives each page view its own token", async () => {
    const first = await tokenOfPage();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await tokenOfPage()).not.toBe(first);
  });

  it("stores one request and queues one mail for a form sent again, at once or later", async () => {
    const submission = await tokenOfPage();
    // A double click: both posts at the same moment.
    const together = await Promise.all([1, 2, 3].map(() => post({ ...FORM, submission })));
    // A reload or a retried post, later.
    const later = await post({ ...FORM, submission });
    for (const answer of [...together, later]) {
      expect(answer.status).toBe(303);
      expect(answer.location).toMatch(/^\/contact\/merci\?ref=DEM-\d{4}-00001$/);
    }
    expect(await database.db.$count(contactRequests)).toBe(1);
    expect(await database.db.$count(mailOutbox)).toBe(1);
    // The replays did not use up the visitor's limit (2): another form still goes through.
    const other = await post({ ...FORM, submission: await tokenOfPage() });
    expect(other.status).toBe(303);
    expect(await database.db.$count(contactRequests)).toBe(2);
  });

  it("stores a changed form sent with an old token as a new request (back, edit, send)", async () => {
    const submission = await tokenOfPage();
    const first = await post({ ...FORM, submission });
    // The browser restored the page's token; the visitor changed the message.
    const edited = await post({ ...FORM, submission, message: "Finalement, deux serveurs" });
    expect(edited.status).toBe(303);
    expect(edited.location).not.toBe(first.location);
    const rows = await database.db
      .select({ message: contactRequests.message })
      .from(contactRequests)
      .orderBy(contactRequests.id);
    expect(rows.map((r) => r.message)).toEqual([
      "Bonjour, un devis svp",
      "Finalement, deux serveurs",
    ]);
    expect(await database.db.$count(mailOutbox)).toBe(2);
  });

  it("stores the same form with another configuration of the offer as a new request", async () => {
    const [offer] = await database.db
      .insert(offers)
      .values(
        buildOffer(1, {
          options: [
            {
              kind: "choice",
              label: "Mémoire",
              choices: [
                { label: "128 Go", monthly: 0, setup: 0 },
                { label: "256 Go", monthly: 4000, setup: 0 },
              ],
            },
          ],
        }),
      )
      .returning({ id: offers.id });
    const form = { ...FORM, offer: String(offer.id), submission: await tokenOfPage() };
    const first = await post({ ...form, configuration: "" });
    // The same choices again, written otherwise (o0=0 is the base choice): a replay.
    const replay = await post({ ...form, configuration: "o0=0" });
    expect(replay.location).toBe(first.location);
    // Back on the offer page, another memory chosen, the form sent with the restored token.
    const changed = await post({ ...form, configuration: "o0=1" });
    expect(changed.status).toBe(303);
    expect(changed.location).not.toBe(first.location);
    const rows = await database.db
      .select({ configuration: contactRequests.configuration })
      .from(contactRequests)
      .orderBy(contactRequests.id);
    expect(rows.map((r) => r.configuration?.query)).toEqual(["", "o0=1"]);
  });

  it("refuses a token that is not one of ours, storing nothing", async () => {
    const refused = await post({ ...FORM, submission: "1; drop table contact_requests" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      description: expect.stringMatching(/^Ce formulaire n'est plus valide/),
      values: { name: "Jeanne Martin" },
    });
    expect(await database.db.$count(contactRequests)).toBe(0);
  });

  it("still takes a post without a token (scripts), one request each", async () => {
    expect((await post(FORM)).status).toBe(303);
    expect(await database.db.$count(contactRequests)).toBe(1);
  });
});
