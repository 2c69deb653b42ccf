import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

// Lighthouse desktop, accessibility and best practices, on every admin page of a running server
// (issue 22: 100 on each). Usage:
//   ADMIN_EMAIL=… ADMIN_PASSWORD=… tsx scripts/bench/admin-lighthouse.ts http://127.0.0.1:4642 [paths…]
// Prints each page's two scores and the audits that fail.

const [base = "http://127.0.0.1:3000", ...paths] = process.argv.slice(2);
const PAGES = paths.length
  ? paths
  : [
      "/admin",
      "/admin/offers",
      "/admin/offers/new",
      "/admin/offers/1",
      "/admin/contacts",
      "/admin/contacts/1",
      "/admin/personal-data",
      "/admin/users",
      "/admin/webhooks",
      "/admin/datacenters",
      "/admin/lease",
      "/admin/journal",
      "/admin/account",
      "/admin/account/2fa",
      "/admin/confirm",
      // Before sign-in (issue 20). The link's page needs a live token (pass its path): without one
      // it answers 410, which Lighthouse does not score.
      "/auth/mot-de-passe-oublie",
    ];

async function signIn(): Promise<string> {
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({
      email: process.env.ADMIN_EMAIL ?? "",
      password: process.env.ADMIN_PASSWORD ?? "",
    }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="));
  if (!cookie) throw new Error(`sign-in refused (${res.status})`);
  return cookie.split(";")[0];
}

const cookie = await signIn();
const chrome = await launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  logLevel: "silent",
});
let failed = false;
try {
  for (const path of PAGES) {
    const result = await lighthouse(
      `${base}${path}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["accessibility", "best-practices"],
        extraHeaders: { Cookie: cookie },
      },
      desktopConfig,
    );
    if (!result) throw new Error(`no result for ${path}`);
    const { lhr } = result;
    const scores = ["accessibility", "best-practices"].map((c) =>
      Math.round((lhr.categories[c]?.score ?? 0) * 100),
    );
    console.log(`${path}: accessibility ${scores[0]}, best practices ${scores[1]}`);
    for (const audit of Object.values(lhr.audits)) {
      if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary") {
        failed = true;
        const items =
          (
            audit.details as
              | {
                  items?: { node?: { snippet?: string }; description?: string; source?: unknown }[];
                }
              | undefined
          )?.items ?? [];
        console.log(`  ✗ ${audit.id}: ${audit.title}`);
        for (const item of items.slice(0, 5)) {
          console.log(
            `      ${item.node?.snippet ?? item.description ?? JSON.stringify(item).slice(0, 200)}`,
          );
        }
      }
    }
  }
} finally {
  chrome.kill();
}
process.exitCode = failed ? 1 : 0;
