import type { Page } from "@playwright/test";
import { delayScripts, expect, isPhone, noJs, showFilters, test } from "./fixtures";
import { LAYOUT, NEEDS_JS, SERVER_READ } from "./tags";

// Issue 13 on the demo catalogue: sorting, numeric filters, comparison, amounts, featured offers.
// Every test runs with and without JavaScript, on a desktop and a phone.

const titles = (page: Page) => page.getByRole("main").getByRole("heading", { level: 2 });

async function applyFilters(page: Page, jsOff: boolean) {
  if (jsOff) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
}

test.describe("sorting", () => {
  test(
    "sorts by price both ways, in the URL, kept with the filters",
    { tag: LAYOUT },
    async ({ page }, testInfo) => {
      const jsOff = noJs(testInfo);
      await page.goto("/offers");
      await expect(page.getByLabel("Trier par")).toHaveValue("newest");
      await expect(titles(page).first()).toHaveText("EPYC Performance 64");

      await page.getByLabel("Trier par").selectOption("price_asc");
      await applyFilters(page, jsOff);
      await expect(page).toHaveURL(/\/offers\?sort=price_asc$/);
      await expect(titles(page).first()).toHaveText("Starter Web");
      await expect(titles(page).last()).toHaveText("LOA Cluster Virtualisation");

      await page.getByLabel("Trier par").selectOption("price_desc");
      await applyFilters(page, jsOff);
      await expect(page).toHaveURL(/\/offers\?sort=price_desc$/);
      await expect(titles(page).first()).toHaveText("LOA Cluster Virtualisation");

      // A filter keeps the order, and clearing the filters keeps it too.
      await showFilters(page);
      await page.getByLabel("Type").selectOption("loa");
      await applyFilters(page, jsOff);
      await expect(page).toHaveURL(/\/offers\?type=loa&sort=price_desc$/);
      await expect(titles(page)).toHaveText([
        "LOA Cluster Virtualisation",
        "LOA PME 36 mois",
        "LOA Startup 24 mois",
        "LOA Flex Sans Engagement",
      ]);
      await page.getByRole("link", { name: "Effacer les filtres" }).first().click();
      await expect(page).toHaveURL(/\/offers\?sort=price_desc$/);
      await expect(page.getByLabel("Trier par")).toHaveValue("price_desc");
      await expect(page.getByText(/^12 offres trouvées$/)).toBeVisible();
    },
  );

  test("a sorted listing is canonical at /offers and keeps its order across pages", async ({
    page,
    request,
  }) => {
    await page.goto("/offers?sort=price_asc");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/offers$/);
    // Past the last page: back to the last one, in the same order.
    const response = await request.get("/offers?sort=price_asc&page=5", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/offers?sort=price_asc");
    // The default order stays out of the address.
    const plain = await request.get("/offers?sort=newest", { maxRedirects: 0 });
    expect(plain.headers().location).toBe("/offers");
  });
});

test.describe("numeric filters", () => {
  test("RAM min and Cœurs min leave out offers without the number", async ({ page }, testInfo) => {
    const jsOff = noJs(testInfo);
    await page.goto("/offers");
    await page.getByLabel("RAM min (Go)").fill("256");
    await applyFilters(page, jsOff);
    await expect(page).toHaveURL(/\/offers\?ram_min=256$/);
    await expect(page.getByText(/^4 offres trouvées$/)).toBeVisible();
    await expect(titles(page)).toHaveText([
      "EPYC Performance 64",
      "LOA PME 36 mois",
      "LOA Cluster Virtualisation",
      "EPYC Bare Metal 9254",
    ]);
    await page.getByLabel("Cœurs min").fill("32");
    await applyFilters(page, jsOff);
    await expect(page).toHaveURL(/\/offers\?ram_min=256&cores_min=32$/);
    await expect(titles(page)).toHaveText([
      "EPYC Performance 64",
      "LOA PME 36 mois",
      "LOA Cluster Virtualisation",
    ]);
    // The promotion states no numbers: any numeric filter leaves it out.
    await page.goto("/offers?cores_min=1");
    await expect(page.getByText(/^11 offres trouvées$/)).toBeVisible();
    await expect(page.getByText("Xeon Web 2 % Promo_Été")).toHaveCount(0);
  });
});

test.describe("comparison", () => {
  test(
    "a box ticked or a filter chosen while the page's scripts still load counts once they run",
    { tag: NEEDS_JS },
    async ({ page }) => {
      await delayScripts(page); // the visitor acts before the scripts run
      await page.goto("/offers", { waitUntil: "commit" });
      const box = page.getByRole("checkbox", { name: "Comparer Starter Web" });
      await box.check();
      const bar = page.getByRole("form", { name: "Comparer des offres" });
      await expect(bar).toBeVisible(); // the script has run
      await expect(bar).toContainText("1 offre sélectionnée");
      await expect(box).toBeChecked();
      // The same for a filter chosen meanwhile: applied once the script runs.
      await page.goto("/offers", { waitUntil: "commit" });
      await page.getByLabel("Type").selectOption("loa");
      await expect(page).toHaveURL(/\/offers\?type=loa$/);
      await expect(page.getByText(/^4 offres trouvées$/)).toBeVisible();
    },
  );

  test(
    "compares checked offers side by side, each with its Commander button",
    { tag: LAYOUT },
    async ({ page }, testInfo) => {
      const jsOff = noJs(testInfo);
      await page.goto("/offers");
      await page.getByRole("checkbox", { name: "Comparer EPYC Performance 64" }).check();
      await page.getByRole("checkbox", { name: "Comparer LOA PME 36 mois" }).check();
      if (!jsOff) await expect(page.getByText("2 offres sélectionnées.")).toBeVisible();
      await page.getByRole("button", { name: "Comparer la sélection" }).click();
      await expect(page).toHaveURL(/\/comparer\?offres=epyc-performance-64,loa-pme-36-mois$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comparer des offres");

      const table = page.getByRole("table");
      await expect(table.getByRole("columnheader")).toHaveCount(2);
      // On a phone the table scrolls inside its box: the page itself never gets wider.
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      const row = (name: string) =>
        table.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
      await expect(row("Type")).toContainText(/Serveur Dédié[\s\S]*Location LOA/);
      await expect(row("Cœurs")).toContainText(/32[\s\S]*48/);
      await expect(row("Prix HT")).toContainText(/899,99\s€\sHT\/mois[\s\S]*409,50\s€\sHT\/mois/);
      await expect(row("Prix TTC")).toContainText(
        /1\s079,99\s€\sTTC\/mois[\s\S]*491,40\s€\sTTC\/mois/,
      );
      await expect(row("Frais de mise en service")).toContainText(/49,00\s€\sHT[\s\S]*Offerte/);
      // When and where, as on the cards.
      await expect(row("Disponibilité")).toContainText(
        /24 h · Datacenter Paris[\s\S]*24 h · Datacenter Paris/,
      );
      await expect(row("Contrat")).toContainText(/Engagement 12 mois[\s\S]*Durée : 36 mois/);
      await expect(row("Contrat")).toContainText(/Coût total : 14\s937,00\s€\sHT/);
      for (const title of ["EPYC Performance 64", "LOA PME 36 mois"]) {
        await expect(page.getByRole("link", { name: `Commander ${title}` })).toHaveAttribute(
          "href",
          /^\/contact\?offer=\d+$/,
        );
      }
      await page.getByRole("link", { name: "Commander LOA PME 36 mois" }).click();
      await expect(page.getByLabel("Offre concernée (optionnel)")).toHaveValue(/^\d+$/);
    },
  );

  test(
    "with JavaScript, the selection survives the filters and stops at 3",
    { tag: [NEEDS_JS, LAYOUT] },
    async ({ page }) => {
      await page.goto("/offers");
      const bar = page.getByRole("form", { name: "Comparer des offres" });
      await expect(bar).toBeHidden();
      await page.getByRole("checkbox", { name: "Comparer Starter Web" }).check();
      await expect(bar).toBeVisible();
      await expect(bar).toContainText("1 offre sélectionnée : cochez-en une autre pour comparer.");
      await expect(bar.getByRole("button", { name: "Comparer la sélection" })).toBeDisabled();

      // Filter to the LOA offers: Starter Web leaves the page but stays selected.
      await showFilters(page);
      await page.getByLabel("Type").selectOption("loa");
      await expect(page).toHaveURL(/type=loa/);
      await page.getByRole("checkbox", { name: "Comparer LOA Startup 24 mois" }).check();
      await page.getByRole("checkbox", { name: "Comparer LOA Flex Sans Engagement" }).check();
      await expect(bar).toContainText("3 offres sélectionnées (3 au plus).");
      await expect(page.getByRole("checkbox", { name: "Comparer LOA PME 36 mois" })).toBeDisabled();
      await bar.getByRole("button", { name: "Comparer la sélection" }).click();
      await expect(page).toHaveURL(
        /\/comparer\?offres=starter-web,loa-startup-24-mois,loa-flex-sans-engagement$/,
      );
      await expect(page.getByRole("table").getByRole("columnheader")).toHaveCount(3);

      // Back on the listing the boxes are still checked; 'Vider' clears the selection.
      await page.goto("/offers?type=loa");
      await expect(
        page.getByRole("checkbox", { name: "Comparer LOA Startup 24 mois" }),
      ).toBeChecked();
      await bar.getByRole("button", { name: "Vider" }).click();
      await expect(bar).toBeHidden();
      await expect(
        page.getByRole("checkbox", { name: "Comparer LOA Startup 24 mois" }),
      ).not.toBeChecked();
    },
  );

  test(
    "is polite about too many, unknown or inactive offers, and never indexed",
    { tag: SERVER_READ },
    async ({ page, request }) => {
      await page.goto(
        "/comparer?offres=starter-web,xeon-legacy-ancienne-gamme,inconnue,epyc-bare-metal-9254,ryzen-gaming-7950x",
      );
      await expect(
        page.getByText("Vous pouvez comparer jusqu'à 3 offres : 2 offres ont été ignorées."),
      ).toBeVisible();
      await expect(
        page.getByText("2 offres demandées n'existent pas ou ne sont plus disponibles."),
      ).toBeVisible();
      await expect(page.getByRole("table").getByRole("columnheader")).toHaveText([/Starter Web/]);

      await page.goto("/comparer?offres=inconnue");
      await expect(page.getByText(/Aucune offre à comparer/)).toBeVisible();
      await expect(page.getByRole("link", { name: "Voir nos offres" })).toHaveAttribute(
        "href",
        "/offers",
      );

      const response = await request.get("/comparer?offres=starter-web,ryzen-gaming-7950x");
      expect(response.status()).toBe(200);
      expect(response.headers()["x-robots-tag"]).toBe("noindex");
      expect(await response.text()).toContain('<meta name="robots" content="noindex, nofollow"/>');
      const sitemap = await (await request.get("/sitemap.xml")).text();
      expect(sitemap).not.toContain("comparer");
    },
  );
});

test.describe("what the buyer pays", () => {
  test(
    "an offer page gives HT and TTC, the setup fee and the JSON-LD tax flag",
    { tag: SERVER_READ },
    async ({ page }) => {
      await page.goto("/offers/epyc-performance-64");
      const main = page.getByRole("main");
      await expect(main.getByText(/^899,99\s€\sHT\/mois$/)).toBeVisible();
      await expect(main.getByText(/^soit 1\s079,99\s€\sTTC\/mois$/)).toBeVisible();
      await expect(main.getByText(/^Frais de mise en service : 49,00\s€\sHT$/)).toBeVisible();
      const jsonLd = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
      ) as { offers: { price: string; priceSpecification: { valueAddedTaxIncluded: boolean } } };
      expect(jsonLd.offers.price).toBe("899.99");
      expect(jsonLd.offers.priceSpecification.valueAddedTaxIncluded).toBe(false);
    },
  );

  test(
    "an LOA page gives its duration, purchase option and total cost",
    { tag: SERVER_READ },
    async ({ page }) => {
      await page.goto("/offers/loa-pme-36-mois");
      const main = page.getByRole("main");
      await expect(main.getByText("Mise en service offerte")).toBeVisible();
      const term = (label: string) =>
        main.locator("dt", { hasText: label }).first().locator("xpath=following-sibling::dd[1]");
      // The lease simulator (issue 21): 13 000 € financed × 0,0315 at the offer's 36 months.
      await expect(term("Durée")).toHaveText("36 mois");
      await expect(term("Option d'achat")).toHaveText(/^195,00\s€\sHT \(soit 234,00\s€\sTTC\)$/);
      await expect(term("Coût total")).toHaveText(
        /^14\s937,00\s€\sHT \(soit 17\s924,40\s€\sTTC\)$/,
      );
    },
  );

  test("cards mention a setup fee that is not zero", { tag: SERVER_READ }, async ({ page }) => {
    await page.goto("/offers?q=epyc");
    const card = (title: string) =>
      page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(card("EPYC Performance 64")).toContainText(/\+ 49,00\s€\sHT de mise en service/);
    await expect(card("EPYC Bare Metal 9254")).not.toContainText("mise en service");
  });
});

test.describe("home", () => {
  test("shows up to 3 featured offers between the solutions and the call to action", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 2 })).toHaveText([
      "Pourquoi nous choisir ?",
      "Nos solutions",
      "Offres à la une",
      "Prêt à démarrer ?",
    ]);
    const featured = main.getByRole("region", { name: "Offres à la une" });
    await expect(featured.getByRole("heading", { level: 3 })).toHaveText([
      "EPYC Performance 64",
      "Ryzen Gaming 7950X",
      "LOA PME 36 mois",
    ]);
    await expect(featured.getByText(/\d+,\d{2}\s€\sHT\/mois/)).toHaveCount(3);
    await expect(featured.getByRole("checkbox")).toHaveCount(0);
    if (!isPhone(testInfo)) {
      await featured.getByRole("link", { name: "Ryzen Gaming 7950X" }).click();
      await expect(page).toHaveURL(/\/offers\/ryzen-gaming-7950x$/);
    }
  });
});

test.describe("counts beside the filters (issue 30)", () => {
  /** A select's choices as the visitor reads them: value, count and whether it can be chosen. */
  async function choices(page: Page, label: string) {
    const options = await page
      .getByLabel(label, { exact: true })
      .locator("option")
      .evaluateAll((nodes) =>
        nodes.map((node) => {
          const option = node as HTMLOptionElement;
          return { value: option.value, text: option.textContent ?? "", disabled: option.disabled };
        }),
      );
    return options.map((o) => ({ ...o, count: Number(/\((\d+)\)$/.exec(o.text)?.[1] ?? NaN) }));
  }

  const countLine = (n: number) => (n > 1 ? `${n} offres trouvées` : `${n} offre trouvée`);

  test("each choice shows what it lists with the other filters; a choice listing none is disabled", async ({
    page,
  }, testInfo) => {
    // About twenty page loads (every choice of three selects, applied): 10 s alone, over 30 s on
    // a loaded machine.
    test.slow();
    const jsOff = noJs(testInfo);
    await page.goto("/offers?q=epyc");
    // EPYC in the processor: two in Paris (one LOA), two in Strasbourg (on order, sold out).
    await expect(page.locator("#resultats")).toHaveText("4 offres trouvées");
    expect(await choices(page, "Datacenter")).toEqual([
      { value: "", text: "Tous (4)", disabled: false, count: 4 },
      { value: "paris", text: "Paris (2)", disabled: false, count: 2 },
      { value: "roubaix", text: "Roubaix (0)", disabled: true, count: 0 },
      { value: "strasbourg", text: "Strasbourg (2)", disabled: false, count: 2 },
    ]);
    await expect(page.getByLabel("Livrable immédiatement (2)")).toBeEnabled();

    // Every enabled choice of every select lists as many offers as its count says.
    for (const label of ["Type", "Engagement", "Datacenter"]) {
      const select = page.getByLabel(label, { exact: true });
      const before = await select.inputValue();
      for (const choice of await choices(page, label)) {
        if (choice.disabled) {
          expect(choice.count, choice.text).toBe(0);
          continue;
        }
        await select.selectOption(choice.value);
        await applyFilters(page, jsOff);
        await expect(page.locator("#resultats"), `${label}: ${choice.text}`).toHaveText(
          countLine(choice.count),
        );
      }
      await select.selectOption(before);
      await applyFilters(page, jsOff);
      await expect(page.locator("#resultats")).toHaveText("4 offres trouvées");
    }

    // The counts follow the other filters: with LOA chosen, the datacenters count LOA offers.
    await page.getByLabel("Rechercher").fill("");
    await page.getByLabel("Type", { exact: true }).selectOption("loa");
    await applyFilters(page, jsOff);
    await expect(page).toHaveURL(/\/offers\?type=loa$/);
    await expect(page.locator("#resultats")).toHaveText("4 offres trouvées");
    expect((await choices(page, "Datacenter")).map((c) => c.text)).toEqual([
      "Tous (4)",
      "Paris (2)",
      "Roubaix (1)",
      "Strasbourg (1)",
    ]);
    const available = page.getByLabel(/^Livrable immédiatement/);
    await expect(available).toHaveAccessibleName("Livrable immédiatement (4)");
    await available.check();
    await applyFilters(page, jsOff);
    await expect(page.locator("#resultats")).toHaveText("4 offres trouvées");
  });
});
