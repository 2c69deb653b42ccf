import { describe, expect, it } from "vitest";
import { useServerWithMail } from "./harness/use-server";
import { clientAddress, postSiteForm, signInOverHttp, sleep } from "./support";

/**
 * Secrets in addresses never reach the log (issue 39): a sent quote's token is its page's path
 * (`/devis/<token>`), alert and reset links carry `jeton=` and `token=`. The built server at
 * LOG_LEVEL=debug is sent every kind of request that writes a path (the access log, a cross-site
 * refusal, a body refused, a method refused, a 404) under a real quote link, and its whole output is
 * searched for the token.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les journaux" };
const BUYER = "acheteur-journaux@example.fr";
const METRICS_TOKEN = "jeton-des-metriques-assez-long";

const { server, smtp } = useServerWithMail({
  label: "secrets-in-logs",
  admin: ADMIN,
  env: { LOG_LEVEL: "debug", METRICS_TOKEN },
});

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${server.base}${path}`, {
    redirect: "manual",
    ...init,
    headers: { Accept: "text/html", "X-Forwarded-For": clientAddress(21), ...init.headers },
  });

/** A quote sent from the desk to BUYER: the path of its mail's link. */
async function sentQuotePath(): Promise<string> {
  const cookie = await signInOverHttp(server.base, ADMIN);
  const { offers } = (await (await send("/api/offers")).json()) as { offers: { slug: string }[] };
  const offerPage = await (await send(`/offers/${offers[0].slug}`)).text();
  const offer = /\/contact\?offer=(\d+)/.exec(offerPage)?.[1];
  expect(offer).toBeDefined();
  const fields = { name: "Jeanne", email: BUYER, phone: "", message: "Un devis", offer: offer! };
  const sent = await postSiteForm(server.base, "/contact", fields, "", clientAddress(22));
  const id = Number(/DEM-\d{4}-(\d{5})/.exec(sent.headers.get("location") ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  const quoted = await postSiteForm(
    server.base,
    `/admin/contacts/${id}/envoyer-devis`,
    { validity: "30" },
    cookie,
  );
  expect(quoted.status).toBe(302);
  // The buyer's mails: the acknowledgement first, then the quote with its link.
  for (let i = 0; i < 600; i++) {
    const texts = smtp.mails
      .filter((m) => m.envelope.to.some((to) => to.toLowerCase() === BUYER))
      .map((m) => m.parsed.text ?? "");
    for (const text of texts) {
      const link = /https?:\/\/[^\s"<>]+(\/devis\/[A-Za-z0-9_-]{43})/.exec(text);
      if (link) return link[1];
    }
    await sleep(50);
  }
  throw new Error("no quote mail to the buyer");
}

describe("secrets in addresses", () => {
  it("never reach a log line, whatever writes the path", async () => {
    const path = await sentQuotePath();
    const token = path.slice("/devis/".length);

    expect((await send(path)).status).toBe(200);
    expect((await send(`${path}/pdf`)).status).toBe(200);
    expect((await send(path.toUpperCase().replace(token.toUpperCase(), token))).status).toBe(200);
    // Another site's form posting to it: refused before the body is read, and logged.
    const crossSite = await send(path, {
      method: "POST",
      headers: { Origin: "https://ailleurs.example", "Content-Type": FORM },
      body: "intent=accept",
    });
    expect(crossSite.status).toBe(403);
    // A compressed body (415, logged by the body reader) and a post to the PDF, which has no
    // action (405, logged as refused by React Router's error handler).
    const compressed = await send(path, {
      method: "POST",
      headers: { Origin: server.base, "Content-Type": FORM, "Content-Encoding": "gzip" },
      body: "intent=accept",
    });
    expect(compressed.status).toBe(415);
    const toPdf = await send(`${path}/pdf`, {
      method: "POST",
      headers: { Origin: server.base, "Content-Type": FORM },
      body: "intent=accept",
    });
    expect(toPdf.status).toBe(405);
    // Under it: an unknown page (the 404 line) and an unknown PDF.
    expect((await send(`${path}/inconnue`)).status).toBe(404);
    // Secrets in query strings: alert and reset links.
    for (const link of [
      `/alertes/confirmer?jeton=${token}`,
      `/auth/nouveau-mot-de-passe?token=${token}`,
    ]) {
      expect((await send(link)).status, link).toBeLessThan(500);
    }
    const metrics = await send("/metrics", {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await metrics.text()).toContain('route="/devis/:token"');

    // Every line is written once its answer has gone: wait for the last request's.
    for (let i = 0; i < 200; i++) {
      if (server.logLines("request").some((l) => l.path === "/metrics")) break;
      await sleep(25);
    }
    const redacted = "/devis/[redacted]";
    const requests = server.logLines("request").filter((l) => l.path === redacted);
    expect(requests.map((l) => l.status).sort()).toEqual([200, 403, 415]);
    const pdf = server.logLines("request").filter((l) => l.path === `${redacted}/pdf`);
    expect(pdf.map((l) => l.status).sort()).toEqual([200, 405]);
    expect(server.logLines("request").map((l) => l.path)).toContain("/DEVIS/[redacted]");
    expect(server.logLines("cross-site request refused").map((l) => l.path)).toEqual([redacted]);
    expect(server.logLines("request body refused").map((l) => l.path)).toEqual([redacted]);
    expect(server.logLines("request refused").map((l) => l.path)).toEqual([`${redacted}/pdf`]);
    expect(server.logLines("page not found").map((l) => l.path)).toEqual([`${redacted}/inconnue`]);
    expect(server.output).toContain('"level":"debug"');
    expect(server.output).not.toContain(token);
  });
});

const FORM = "application/x-www-form-urlencoded";
