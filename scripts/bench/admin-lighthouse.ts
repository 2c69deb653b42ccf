// `admin-lighthouse`: Lighthouse desktop on every admin page, signed in, on the demo catalogue with
// two requests: one as it arrived, one as the sales team leaves it (assigned, statuses changed,
// notes, its quote sent), both made through the app's own forms. Prints and writes, per page,
// layout shift, performance, accessibility and best practices; exit 1 when a page misses a budget.
import { postSiteForm } from "../../tests/system/support";
import { CONTACT, demoServer, requestWithHistory, text } from "./demo";
import * as report from "./report";
import { step, write } from "./results";
import * as tools from "./tools";

/** Issue 39's budgets for the administration (desktop). */
const BUDGETS = { cls: 0.05, performance: 95, accessibility: 100, bestPractices: 100 };

/** Every admin page, and one before sign-in (the reset link's page needs a live token: pass it). */
const adminPages = (ids: { offerId: number; plain: number; worked: number }) =>
  `/admin /admin/offers /admin/offers/new /admin/offers/${ids.offerId} /admin/contacts
  /admin/contacts/${ids.plain} /admin/contacts/${ids.worked} /admin/contacts/${ids.worked}/envoyer-devis
  /admin/relances /admin/messages /admin/modeles /admin/personal-data /admin/users /admin/webhooks /admin/datacenters /admin/recherche /admin/lease /admin/journal
  /admin/account /admin/account/2fa /admin/confirm /auth/mot-de-passe-oublie`.split(/\s+/);

export async function adminLighthouse(paths: string[]) {
  const runs = tools.envNumber("BENCH_ADMIN_LIGHTHOUSE_RUNS", 1);
  const { server, cookie, ids } = await demoServer();
  const rows: unknown[][] = [];
  let failed = false;
  try {
    step(`request ${ids.contactId}: assigned, two statuses, three notes, its quote sent`);
    await requestWithHistory(server.base, cookie, ids.contactId);
    const fields = { ...CONTACT, message: "Une question générale sur vos serveurs." };
    const plainPost = await postSiteForm(server.base, "/contact", fields);
    if (plainPost.status !== 303) throw new Error(`the second request: ${plainPost.status}`);
    // The list is newest first: the request just posted.
    const list = await text(`${server.base}/admin/contacts`, { headers: { cookie } });
    const plain = Number(/\/admin\/contacts\/(\d+)"/.exec(list)?.[1]);
    const pages = paths.length
      ? paths
      : [
          ...adminPages({ offerId: ids.offerId, plain, worked: ids.contactId }),
          "/admin/offers#toast",
        ];
    // `#toast`: the page with a success toast shown (the flash cookie is a key, no signature).
    for (const page of pages) {
      const toast = page.endsWith("#toast") ? "; flash=offerUpdated" : "";
      step(`Lighthouse desktop ${page}${runs > 1 ? ` (${runs} runs, median)` : ""}`);
      const lh = await tools.audit(`${server.base}${page}`, runs, { cookie: cookie + toast });
      const misses = [
        lh.cls > BUDGETS.cls && `CLS ${lh.cls} > ${BUDGETS.cls}`,
        lh.performance < BUDGETS.performance && `performance ${lh.performance}`,
        lh.accessibility < BUDGETS.accessibility && `accessibility ${lh.accessibility}`,
        lh.bestPractices < BUDGETS.bestPractices && `best practices ${lh.bestPractices}`,
      ].filter(Boolean);
      const scores = `${lh.performance} / ${lh.accessibility} / ${lh.bestPractices}`;
      console.log(`  CLS ${lh.cls}, performance / accessibility / best practices ${scores}`);
      for (const shift of lh.shifts) console.log(`  shift ${shift.slice(0, 200)}`);
      for (const failure of lh.failures) console.log(`  ${failure.replaceAll("\n", "\n  ")}`);
      failed ||= misses.length > 0 || lh.failures.length > 0;
      rows.push([
        page,
        lh.cls,
        lh.performance,
        lh.accessibility,
        lh.bestPractices,
        lh.lcpMs,
        lh.tbtMs,
        misses.join(", ") || "—",
      ]);
    }
  } finally {
    await server.stop();
  }
  const heads =
    "Page|CLS (≤ 0.05)|Performance (≥ 95)|Accessibility|Best practices|LCP ms|TBT ms|Missed";
  const run = `Demo catalogue, request ${ids.contactId} with its quote, notes and history, another as received; Lighthouse desktop (simulated throttling), ${runs === 1 ? "one run" : `median of ${runs}`} per page, signed in.`;
  write(
    "admin-lighthouse",
    "The administration, Lighthouse desktop",
    run,
    `${report.table(heads, rows)}\n`,
    { budgets: BUDGETS, rows },
  );
  process.exitCode = failed ? 1 : 0;
}
