// npm run bench:buyer: issue 21's figures on the built server with the demo catalogue, without the
// whole bench: the two quote PDFs (the server's time per PDF, median of the runs, each after one
// request of the reference listing, and its size), then Lighthouse (mobile) on configured offer
// pages (score and JavaScript). The full `npm run bench` measures the same two PDF addresses at
// 10,000 offers and 100,000 requests (its pages table).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BENCH_ADMIN, measurePages, PAGES, QUOTE_PDF_LIMIT_MS, signIn } from "./admin-pages";
import { audit } from "./lighthouse";
import { startAppServer, stop, waitFor } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 4411) + 5;
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 21);
const SLUG = "epyc-performance-64";
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Offer pages with options chosen, and an LOA with its duration: the configurator's pages. */
const CONFIGURED_PAGES = [
  `/offers/${SLUG}?o0=1&o2=4`,
  "/offers/loa-pme-36-mois?o0=1&duree=48",
  // A control on a shared machine: the home page, untouched by issue 21, in the same minutes.
  "/",
];
const JS_BUDGET_BYTES = 10 * 1024;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-quote-"));
  const { child, base } = startAppServer({
    port: PORT,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "true",
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
    },
  });
  try {
    await waitFor(`${base}/healthz`, child, "server");
    const page = await (await fetch(`${base}/offers/${SLUG}`)).text();
    const offer = /\/contact\?offer=(\d+)/.exec(page)?.[1];
    if (!offer) throw new Error("the demo offer's contact link was not found");
    await fetch(`${base}/contact`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        name: "Banc d'essai",
        email: "bench-quote@example.fr",
        phone: "",
        offer,
        message: "Un devis, s'il vous plaît.",
        configuration: "o0=1&o1=1",
      }),
    });
    const cookie = await signIn(base);
    const list = await (await fetch(`${base}/admin/contacts`, { headers: { cookie } })).text();
    const contact = Number(/\/admin\/contacts\/(\d+)"/.exec(list)?.[1]);
    const results = await measurePages({
      base,
      cookie,
      pid: child.pid!,
      ids: {
        offerId: Number(offer),
        contactId: contact,
        email: "",
        offerSlug: SLUG,
        quoteContactId: contact,
      },
      runs: RUNS,
      pages: PAGES.filter((p) => p.name.endsWith(".pdf")),
      log: console.log,
    });
    console.log(`\nQuote PDFs, demo catalogue, ${RUNS} runs (target ≤ ${QUOTE_PDF_LIMIT_MS} ms):`);
    for (const r of results) {
      console.log(
        `  ${r.name}: ${r.available ? `${r.medianMs} ms median, ${r.bytes} bytes (listing ${r.referenceMedianMs} ms)` : r.note}`,
      );
    }
    console.log(
      `\nLighthouse mobile, ${LIGHTHOUSE_RUNS} runs, median (target 100, JavaScript ≤ 10 KB gzip):`,
    );
    for (const path of CONFIGURED_PAGES) {
      const lh = await audit(`${base}${path}`, LIGHTHOUSE_RUNS);
      const js = `${(lh.jsGzipBytes / 1024).toFixed(1)} KB gzip${lh.jsGzipBytes > JS_BUDGET_BYTES ? " (over)" : ""}`;
      console.log(
        `  ${path}: ${lh.performance} / ${lh.accessibility} / ${lh.bestPractices} / ${lh.seo}, LCP ${lh.lcpMs} ms, TBT ${lh.tbtMs} ms, CLS ${lh.cls}, JavaScript ${js} (${lh.scripts.join(", ")})`,
      );
    }
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
