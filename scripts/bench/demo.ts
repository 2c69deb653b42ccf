// The built server on the demo catalogue with the bench's administrator and one request for a
// quote, and that request given a life through the real app's forms (quote, notes, history).
import { parisDay } from "../../app/lib/dates";
import { postSiteForm } from "../../tests/system/support";
import { BENCH_ADMIN } from "./data";
import { signIn } from "./pages";
import * as tools from "./tools";

export const ADMIN_ENV = { ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password };
/** The contact form as the bench posts it. */
export const CONTACT = { name: "Banc d'essai", email: "bench@example.fr", phone: "", offer: "" };
export const text = async (url: string, init?: RequestInit) => (await fetch(url, init)).text();

/** The built server on the demo catalogue with the bench's administrator and one quote request. */
export async function demoServer(env: Record<string, string> = {}) {
  const server = await tools.launch({ SEED_DEMO: "true", ...ADMIN_ENV, ...env });
  const offerSlug = "epyc-performance-64";
  const offer = /\/contact\?offer=(\d+)/.exec(
    await text(`${server.base}/offers/${offerSlug}`),
  )?.[1];
  if (!offer) throw new Error("the demo offer's contact link was not found");
  const company = { company: "Banc d'essai SAS", siren: "732829320", configuration: "o0=1&o1=1" };
  const fields = { ...CONTACT, email: "bench-quote@example.fr", offer, message: "Un devis ?" };
  await postSiteForm(server.base, "/contact", { ...fields, ...company });
  const cookie = await signIn(server.base);
  const list = await text(`${server.base}/admin/contacts`, { headers: { cookie } });
  const contactId = Number(/\/admin\/contacts\/(\d+)"/.exec(list)?.[1]);
  return {
    server,
    cookie,
    ids: { offerId: Number(offer), contactId, email: "", offerSlug, quoteContactId: contactId },
  };
}

const NOTES = [
  "Appelé ce matin : le client compare avec deux autres hébergeurs.",
  "Besoin confirmé : 2 × 1,92 To NVMe en RAID 1, livraison avant la fin du mois.\nRappeler jeudi après 14 h.",
  "Devis envoyé, relance prévue la semaine prochaine.",
];

/**
 * The request as the sales team leaves it after a few days: assigned, moved along its statuses,
 * three notes and its quote sent, each through the page's own forms (as a browser posts them).
 */
export async function requestWithHistory(base: string, cookie: string, id: number) {
  const page = `/admin/contacts/${id}`;
  const owner = /<option value="(\d+)">/.exec(
    await text(`${base}${page}`, { headers: { cookie } }),
  );
  if (!owner) throw new Error("no account to assign the request to");
  const posts: [string, Record<string, string>][] = [
    [page, { intent: "assign", owner: owner[1], note: "" }],
    [page, { intent: "status", status: "in_progress", note: "" }],
    ...NOTES.map((note): [string, Record<string, string>] => [page, { intent: "note", note }]),
    [`${page}/envoyer-devis`, { validity: "30" }],
    [page, { intent: "status", status: "completed", note: "" }],
    // 'À relancer le' today: the request shows in its owner's Mes relances (issue 40).
    [page, { intent: "follow-up", nextActionOn: parisDay(new Date()) }],
  ];
  for (const [path, fields] of posts) {
    const answer = await postSiteForm(base, path, fields, cookie);
    if (answer.status !== 302)
      throw new Error(`${path} (${fields.intent}) answered ${answer.status}`);
  }
}
