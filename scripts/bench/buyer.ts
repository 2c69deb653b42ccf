// The buyer's documents, demo catalogue: quote PDFs and configured offer pages (`buyer`), and
// `Envoyer le devis` to its mail at a real SMTP server (`quote`).
import { postSiteForm } from "../../tests/system/support";
import { startTestSmtpServer } from "../../tests/support/smtp";
import { demoServer } from "./demo";
import { measurePages, PAGES } from "./pages";
import * as report from "./report";
import { step, write } from "./results";
import * as tools from "./tools";
import { LIGHTHOUSE_RUNS } from "./settings";

export async function buyer() {
  const { server, ids } = await demoServer();
  const runs = tools.envNumber("BENCH_PAGE_RUNS", 21);
  try {
    const pages = PAGES.filter((p) => p.name.endsWith(".pdf"));
    const pdfs = await measurePages({ server, ids, runs, pages, log: console.log });
    const rows: unknown[][] = [];
    // Offer pages with options chosen, an LOA with its duration; the home page as a control.
    for (const page of [
      `/offers/${ids.offerSlug}?o0=1&o2=4`,
      "/offers/loa-pme-36-mois?o0=1&duree=48",
      "/",
    ]) {
      step(`Lighthouse ${page}`);
      const lh = await tools.audit(`${server.base}${page}`, LIGHTHOUSE_RUNS);
      const js = `${report.kb(lh.jsGzipBytes)}${lh.jsGzipBytes > 10 * 1024 ? " (over)" : ""} (${lh.scripts.join(", ")})`;
      const times = [`${lh.lcpMs} ms`, `${lh.tbtMs} ms`];
      rows.push([page, report.scores(lh), ...times, lh.cls, js, lh.benchmarkIndex]);
    }
    const markdown = [
      `## Quote PDFs (target ≤ ${report.QUOTE_PDF_LIMIT_MS} ms at the server)`,
      "",
      report.pagesTable(pdfs),
      "",
      `## Configured offer pages, Lighthouse mobile (median of ${LIGHTHOUSE_RUNS}; target 100, JavaScript ≤ 10 KB gzip)`,
      "",
      report.table("Page|Scores|LCP|TBT|CLS|JavaScript gzip|CPU index", rows),
      "",
    ];
    const run = `Demo catalogue, ${runs} requests per PDF, each after one of the reference listing.`;
    write("buyer", "Quotes and configured offers", run, markdown.join("\n"), {
      pdfs,
      lighthouse: rows,
    });
  } finally {
    await server.stop();
  }
}

/**
 * Issue 29: `Envoyer le devis` posted by the salesperson on the demo request, one send at a time
 * (each replaces the previous quote), timed from the post to its answer (the quote stored, its
 * mail queued) and to the mail, its PDF attached, received by a real SMTP server on loopback.
 */
export async function quote() {
  const smtp = await startTestSmtpServer();
  const mailEnv = { SMTP_URL: smtp.url, NOTIFY_EMAIL: "ventes@example.fr" };
  const { server, cookie, ids } = await demoServer(mailEnv);
  const runs = tools.envNumber("BENCH_QUOTE_RUNS", 30);
  const path = `/admin/contacts/${ids.quoteContactId}/envoyer-devis`;
  const mails = () => smtp.mails.filter((m) => /^Votre devis DEV-/.test(m.parsed.subject ?? ""));
  const [answered, delivered]: number[][] = [[], []];
  let pdfBytes = 0;
  try {
    for (let i = 0; i <= runs; i++) {
      const [seen, start] = [mails().length, Date.now()];
      const post = await postSiteForm(server.base, path, { validity: "30" }, cookie);
      const answeredMs = Date.now() - start;
      if (post.status !== 302) throw new Error(`Envoyer le devis answered ${post.status}`);
      while (mails().length <= seen && Date.now() - start < 30_000) await tools.sleep(5);
      const mail = mails()[seen];
      const pdf = mail?.parsed.attachments.find((a) => a.mimeType === "application/pdf");
      if (!pdf) throw new Error("no quote mail with its PDF within 30 s");
      pdfBytes = typeof pdf.content === "string" ? pdf.content.length : pdf.content.byteLength;
      if (i === 0) continue; // the first send warms the server up
      answered.push(answeredMs);
      delivered.push(mail.receivedAt - start);
    }
  } finally {
    await Promise.all([server.stop(), smtp.stop()]);
  }
  const row = (name: string, ms: number[]) => [name, ...tools.quantiles(ms, [0.5, 0.95, 1])];
  const rows = [row("its answer", answered), row("the mail at the SMTP server", delivered)];
  const markdown = `${report.table("From the post to|Median ms|p95 ms|Max ms", rows)}\n`;
  const run = `Demo catalogue, its request (an offer with options, a company): ${runs} sends one at a time (each replaces the previous quote) after one to warm up. The answer (302) comes once the quote is stored and its mail queued; the mail, its PDF (${report.kb(pdfBytes)}) attached, is counted when smtp-server on loopback has it.`;
  write("quote", "Sending a quote", run, markdown, { runs, rows, answered, delivered });
}
