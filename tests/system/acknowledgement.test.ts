import { describe, expect, it } from "vitest";
import { useServerWithMail } from "./harness/use-server";
import { clientAddress, signInOverHttp, sleep } from "./support";

/**
 * The visitor's acknowledgement (issues 22 and 28) through the built server and a real SMTP server
 * on loopback: one per request with the reference the confirmation shows, nothing the visitor
 * typed in it, none for a suspected spam, at most one per mailbox in 10 minutes.
 */

const ADMIN = { email: "admin@example.fr", password: "un mot de passe pour les accusés" };
// ACK_EMAIL is not set: on by default with SMTP_URL.
const { server, smtp } = useServerWithMail({ label: "ack", admin: ADMIN });

let client = 0;
/** Posts the contact form; returns the confirmation page's HTML. */
async function post(fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${server.base}/contact`, {
    method: "POST",
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": clientAddress(3000 + ++client),
    },
    body: new URLSearchParams({ phone: "", offer: "general", ...fields }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

const to = (address: string) =>
  smtp.mails.filter((m) => m.envelope.to.some((t) => t.toLowerCase() === address.toLowerCase()));

describe("visitor acknowledgement", () => {
  it("sends one with the reference the confirmation and the request's page show", async () => {
    const html = await post({
      name: "Jeanne Martin",
      email: "jeanne@example.fr",
      message: "Bonjour, un devis ?",
    });
    const reference = /Votre référence : (?:<[^>]+>)?(DEM-\d{4}-\d{5})/.exec(html)?.[1];
    expect(reference).toBeDefined();
    await server.waitForLog("mail sent", 2);
    const [ack] = to("jeanne@example.fr");
    expect(to("jeanne@example.fr")).toHaveLength(1);
    expect(to("ventes@example.fr")).toHaveLength(1);
    expect(ack.parsed.subject).toBe(`ServeurPro : votre demande ${reference} a bien été reçue`);
    expect(ack.parsed.text).toMatch(/^Bonjour,\n/);
    expect(ack.parsed.text).not.toContain("Jeanne");
    expect(ack.parsed.text).not.toContain("un devis");
    expect(ack.parsed.text).toContain("contact@example.fr");
    expect(ack.parsed.replyTo?.[0]?.address).toBe("contact@example.fr");

    const cookie = await signInOverHttp(server.base, ADMIN);
    const id = Number(reference!.slice(-5));
    const page = await (
      await fetch(`${server.base}/admin/contacts/${id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain(reference);
  });

  it("sends none for a suspected spam", async () => {
    const before = server.logLines("contact request stored as suspected spam").length;
    await post({
      name: "Robot",
      email: "robot@example.fr",
      message: "Bonjour",
      website: "https://spam.example",
    });
    await server.waitForLog("contact request stored as suspected spam", before + 1);
    // A later request's mails arrive after anything the spam could have queued.
    await post({ name: "Témoin", email: "temoin@example.fr", message: "Bonjour" });
    await smtp.waitForMails(4);
    await server.waitForLog("mail sent", 4);
    expect(to("robot@example.fr")).toHaveLength(0);
    expect(to("temoin@example.fr")).toHaveLength(1);
  });

  it("repeats nothing typed: a message full of links reaches the team, not the address typed", async () => {
    const sentBefore = server.logLines("mail sent").length;
    const typed = {
      name: "Service client https://gain.example/prix",
      email: "cible@example.fr",
      phone: "+33 6 00 00 00 01",
      message: [
        "Votre compte est suspendu. Confirmez vos identifiants : https://phish.example/login",
        '<a href="http://phish.example/pay">Payer ici</a> ou www.relais.example',
        "Remboursement : https://xn--pple-43d.example/remboursement",
      ].join("\n"),
    };
    await post(typed);
    await server.waitForLog("mail sent", sentBefore + 2);
    const [ack] = to("cible@example.fr");
    expect(to("cible@example.fr")).toHaveLength(1);
    // Headers (the To display name above all), subject, text and HTML.
    const whole = JSON.stringify(ack.parsed);
    for (const value of [
      "gain.example",
      "phish.example",
      "relais.example",
      "xn--",
      "Service client",
      "00 00 01",
      "suspendu",
    ]) {
      expect(whole).not.toContain(value);
    }
    expect(ack.parsed.to?.[0]).toMatchObject({ name: "", address: "cible@example.fr" });
    const team = to("ventes@example.fr").find((m) => m.parsed.text?.includes("gain.example"));
    expect(team?.parsed.text).toContain(typed.message);
  });

  it("sends at most one per mailbox in 10 minutes: four +tag and case variants get one", async () => {
    const sentBefore = server.logLines("mail sent").length;
    const variants = [
      "paul+1@example.fr",
      "Paul+devis@example.fr",
      "PAUL@EXAMPLE.FR",
      "paul+2@example.fr",
    ];
    const first = await post({ name: "Paul", email: variants[0], message: "Demande 1" });
    for (const [i, email] of variants.slice(1).entries()) {
      await post({ name: "Paul", email, message: `Demande ${i + 2}` });
    }
    // Four notifications to the team, one acknowledgement to Paul's mailbox.
    await server.waitForLog("mail sent", sentBefore + 5);
    await sleep(500);
    expect(server.logLines("mail sent").length).toBe(sentBefore + 5);
    const paul = smtp.mails.filter((m) =>
      m.envelope.to.some((t) => /^paul(\+[^@]*)?@example\.fr$/i.test(t)),
    );
    expect(paul).toHaveLength(1);
    expect(paul[0].envelope.to).toEqual(["paul+1@example.fr"]);
    const reference = /(DEM-\d{4}-\d{5})/.exec(first)?.[1];
    expect(paul[0].parsed.subject).toContain(reference);
  });

  it("lists the chosen configuration in both mails, the visitor's and the team's", async () => {
    const page = await (await fetch(`${server.base}/offers/epyc-performance-64?o0=1`)).text();
    const offer = /\/contact\?offer=(\d+)/.exec(page)?.[1];
    expect(offer).toBeDefined();
    const sentBefore = server.logLines("mail sent").length;
    await post({
      name: "Inès Configurée",
      email: "ines@example.fr",
      message: "Cette configuration, s'il vous plaît.",
      offer: offer!,
      configuration: "o0=1&o2=4",
    });
    await server.waitForLog("mail sent", sentBefore + 2);
    const [ack] = to("ines@example.fr");
    const team = to("ventes@example.fr").find((m) => m.parsed.text?.includes("Inès Configurée"));
    for (const mail of [ack, team]) {
      const text = (mail?.parsed.text ?? "").replace(/[\u202f\u00a0]/g, " ");
      expect(text).toContain("Configuration choisie :");
      expect(text).toContain("Mémoire : 512 Go (+120,00 € HT/mois)");
      expect(text).toContain(
        "IPv4 supplémentaires : 4 (+8,00 € HT/mois, +20,00 € HT de mise en service)",
      );
      expect(mail?.parsed.html).toContain("Configuration choisie");
    }
  });
});
