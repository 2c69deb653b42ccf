import { expect, filtersFold, noJs, showFilters, test } from "./fixtures";
import { DESKTOP_ONLY, LAYOUT, NEEDS_JS, PHONE_ONLY, SERVER_READ } from "./tags";

const priceRe = /\d+,\d{2}\s€\sHT\/mois/;

test.describe("home and site chrome", () => {
  test(
    "home shows the hero, features, solutions and call to action",
    { tag: LAYOUT },
    async ({ page }) => {
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(/ServeurPro/);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Des serveurs performants pour vos projets",
      );
      const main = page.getByRole("main");
      await expect(main.getByRole("link", { name: "Découvrir nos offres" })).toHaveAttribute(
        "href",
        "/offers",
      );
      await expect(main.getByRole("link", { name: "Nous contacter" })).toHaveAttribute(
        "href",
        "/contact",
      );
      for (const title of [
        "Serveurs haute performance",
        "Sécurité garantie",
        "Support réactif",
        "Déploiement rapide",
      ]) {
        await expect(main.getByRole("heading", { name: title })).toBeVisible();
      }
      // The spec's claims, and no other promise unless the site configuration makes it.
      const features = await main.locator("#atouts ~ ul").innerText();
      for (const claim of ["DDoS", "24h/24", "7 jours sur 7", "moins de 24h"]) {
        expect(features).toContain(claim);
      }
      // The featured offers' cards show the offers' own specs (NVMe, Gbit/s...): not the site's claims.
      const featured = await main.locator('section[aria-labelledby="a-la-une"]').innerText();
      const text = (await main.innerText()).replace(featured, "");
      for (const promise of [/Gbit/, /NVMe/, /inclus/i, /Accès root/, /Loyers fixes/]) {
        expect(text).not.toMatch(promise);
      }
      await expect(main.getByText("Recommandé")).toBeVisible();
      await expect(main.getByText("Flexible")).toBeVisible();
      await expect(main.getByRole("link", { name: /Serveurs Dédiés/ })).toHaveAttribute(
        "href",
        "/offers",
      );
      await expect(main.getByRole("link", { name: /Location LOA/ })).toHaveAttribute(
        "href",
        "/offers",
      );
      await expect(main.getByRole("link", { name: "Voir toutes les offres" })).toHaveAttribute(
        "href",
        "/offers",
      );
      await expect(main.getByRole("link", { name: "Demander un devis" })).toHaveAttribute(
        "href",
        "/contact",
      );
    },
  );

  test(
    "footer lists navigation, services, contact, legal links and the year",
    { tag: LAYOUT },
    async ({ page }) => {
      await page.goto("/");
      const footer = page.getByRole("contentinfo");
      for (const name of ["Accueil", "Nos Offres", "Contact"]) {
        await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
      }
      for (const service of [
        "Serveurs Dédiés",
        "Location LOA",
        "Solutions Sur Mesure",
        "Support Technique",
      ]) {
        await expect(footer.getByText(service, { exact: true })).toBeVisible();
      }
      await expect(footer.getByRole("link", { name: "contact@example.fr" })).toHaveAttribute(
        "href",
        "mailto:contact@example.fr",
      );
      // The site's own page (SITE_LEGAL_URL unset), in the same tab.
      const legal = footer.getByRole("link", { name: "Mentions légales" });
      await expect(legal).toHaveAttribute("href", "/mentions-legales");
      await expect(legal).not.toHaveAttribute("target", "_blank");
      await expect(footer.getByRole("link", { name: "CGU" })).toBeVisible();
      await expect(footer.getByRole("link", { name: "www.example.fr" })).toBeVisible();
      const year = new Intl.DateTimeFormat("fr-FR", {
        timeZone: "Europe/Paris",
        year: "numeric",
      }).format(new Date());
      await expect(footer).toContainText(`© ${year} ServeurPro`);
    },
  );

  test(
    "desktop header links to the three pages and the servers",
    { tag: DESKTOP_ONLY },
    async ({ page }) => {
      await page.goto("/");
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Découvrir nos serveurs" })).toHaveAttribute(
        "href",
        "/offers",
      );
      await header.getByRole("link", { name: "Nos Offres" }).click();
      await expect(page).toHaveURL(/\/offers$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nos Offres de Serveurs");
      await header.getByRole("link", { name: "Contact" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-nous");
      await header.getByRole("link", { name: "Accueil" }).click();
      await expect(page).toHaveURL(/\/$/);
    },
  );

  test(
    "mobile menu opens, closes and closes when a link is followed",
    { tag: PHONE_ONLY },
    async ({ page }) => {
      await page.goto("/");
      const toggle = page.getByRole("banner").locator("summary");
      const menu = page.getByRole("navigation", { name: "Navigation mobile" });
      await expect(menu).toBeHidden();
      await toggle.click();
      await expect(menu).toBeVisible();
      await toggle.click();
      await expect(menu).toBeHidden();
      await toggle.click();
      await menu.getByRole("link", { name: "Nos Offres" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nos Offres de Serveurs");
      await expect(menu).toBeHidden();
      // Also on a hydrated page, where navigation happens without a reload.
      await toggle.click();
      await menu.getByRole("link", { name: "Contact" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-nous");
      await expect(menu).toBeHidden();
    },
  );

  test(
    "theme follows the system, toggles, and persists without a flash",
    { tag: [NEEDS_JS, LAYOUT] },
    async ({ page }) => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto("/");
      const html = page.locator("html");
      await expect(html).toHaveClass(/dark/);
      await page.getByRole("button", { name: "Basculer entre thème clair et sombre" }).click();
      await expect(html).not.toHaveClass(/dark/);
      expect(await page.evaluate(() => localStorage.getItem("serveurpro-theme"))).toBe("light");
      // The stored choice is applied before first paint on the next server-rendered page.
      await page.addInitScript(() => {
        document.addEventListener("readystatechange", () => {
          if (document.readyState === "interactive") {
            (window as unknown as { themeAtParse: string }).themeAtParse =
              document.documentElement.className;
          }
        });
      });
      await page.goto("/offers");
      expect(
        await page.evaluate(() => (window as unknown as { themeAtParse: string }).themeAtParse),
      ).not.toContain("dark");
      await page.getByRole("button", { name: "Basculer entre thème clair et sombre" }).click();
      await expect(html).toHaveClass(/dark/);
      await page.emulateMedia({ colorScheme: "light" });
      await page.reload();
      await expect(html).toHaveClass(/dark/);
      expect(
        await page.evaluate(() => (window as unknown as { themeAtParse: string }).themeAtParse),
      ).toContain("dark");
    },
  );
});

test.describe("listing", () => {
  test(
    "on a phone, the filters fold under 'Filtres' and the first offers show on the first screen",
    { tag: PHONE_ONLY },
    async ({ page }) => {
      await page.goto("/offers");
      // The first card begins on the first screen (below 1,000 px before the fold, at 412 × 839).
      const firstCard = page
        .getByRole("main")
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "EPYC Performance 64" }) });
      await expect(firstCard).toBeInViewport();
      await expect(page.getByLabel("Rechercher")).toBeVisible();
      await expect(page.getByLabel("Trier par")).toBeVisible();
      await expect(page.getByLabel("Type")).toBeHidden();
      await filtersFold(page).click();
      await expect(page.getByLabel("Type")).toBeVisible();
      await expect(page.getByLabel("Datacenter")).toBeVisible();
      // A listing with one of the folded filters set shows them unfolded.
      await page.goto("/offers?location=paris");
      await expect(page.getByLabel("Datacenter")).toBeVisible();
      await expect(page.getByLabel("Datacenter")).toHaveValue("paris");
    },
  );

  test(
    "shows the active offers, newest first, with the count and cards",
    { tag: LAYOUT },
    async ({ page }) => {
      await page.goto("/offers");
      await expect(page.getByText("Découvrez notre gamme complète")).toBeVisible();
      const cards = page
        .getByRole("main")
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading") });
      await expect(page.getByText(/^12 offres trouvées$/)).toBeVisible();
      await expect(cards).toHaveCount(12);
      await expect(cards.first()).toContainText("EPYC Performance 64");
      await expect(cards.first()).toContainText(priceRe);
      await expect(page.getByText("Xeon Legacy")).toHaveCount(0); // inactive
      await expect(page.getByPlaceholder("CPU, RAM, référence...")).toBeVisible();
      await expect(page.getByLabel("Prix min (€ HT)")).toHaveAttribute("placeholder", "0");
      await expect(page.getByLabel("Prix max (€ HT)")).toHaveAttribute("placeholder", "1000");
      await expect(page.getByRole("link", { name: "Effacer les filtres" })).toHaveCount(0);
      await cards.first().getByRole("link").click();
      await expect(page).toHaveURL(/\/offers\/epyc-performance-64$/);
    },
  );

  test("filters from the URL on the server", { tag: SERVER_READ }, async ({ page }) => {
    await page.goto("/offers?type=loa&engagement=no");
    await expect(page.getByText(/^1 offre trouvée$/)).toBeVisible();
    await expect(page.getByLabel("Type")).toHaveValue("loa");
    await expect(page.getByLabel("Engagement", { exact: true })).toHaveValue("no");
    await expect(page.getByRole("link", { name: "Effacer les filtres" })).toBeVisible();
  });

  test(
    "filters as the visitor types, or on submit without JavaScript",
    { tag: LAYOUT },
    async ({ page }, testInfo) => {
      await page.goto("/offers");
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
      await page.getByLabel("Rechercher").fill("epyc");
      await showFilters(page);
      await page.getByLabel("Type").selectOption("dedicated");
      await page.getByLabel("Prix min (€ HT)").fill("100");
      await page.getByLabel("Prix max (€ HT)").fill("1000");
      if (noJs(testInfo)) {
        await page.getByRole("button", { name: "Appliquer les filtres" }).click();
      } else {
        await expect(page.getByRole("button", { name: "Appliquer les filtres" })).toHaveCount(0);
      }
      await expect(page).toHaveURL(/\/offers\?q=epyc&type=dedicated&min=100&max=1000$/);
      await expect(page.getByText(/^2 offres trouvées$/)).toBeVisible();
      await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
        "EPYC Performance 64",
        "GPU Calcul A4000",
      ]);
      if (!noJs(testInfo)) {
        // Filtering happened without a full page load.
        expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(
          42,
        );
      }
      // A choice that lists nothing is disabled (counts beside the filters, issue 30); its
      // address still answers, with the empty state.
      const noEngagement = page
        .getByLabel("Engagement", { exact: true })
        .locator('option[value="no"]');
      await expect(noEngagement).toBeDisabled();
      await expect(noEngagement).toHaveText(/\(0\)$/);
      await page.goto("/offers?q=epyc&type=dedicated&min=100&max=1000&engagement=no");
      await expect(
        page.getByText("Aucune offre ne correspond à vos critères de recherche."),
      ).toBeVisible();
      await expect(page.getByText(/^0 offre trouvée$/)).toBeVisible();
      await page.getByRole("link", { name: "Effacer les filtres" }).first().click();
      await expect(page).toHaveURL(/\/offers$/);
      await expect(page.getByText(/^12 offres trouvées$/)).toBeVisible();
      await expect(page.getByLabel("Rechercher")).toHaveValue("");
      await expect(page.getByLabel("Type")).toHaveValue("all");
    },
  );

  test("'all' typed in the search box is a search term, not 'no filter'", async ({
    page,
  }, testInfo) => {
    await page.goto("/offers");
    await page.getByLabel("Rechercher").fill("all");
    if (noJs(testInfo)) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
    await expect(page).toHaveURL(/\/offers\?q=all$/);
    await expect(page.getByLabel("Rechercher")).toHaveValue("all");
    await expect(page.getByRole("link", { name: "Effacer les filtres" }).first()).toBeVisible();
  });

  test(
    "search reads punctuation as a separator and is case-insensitive",
    { tag: SERVER_READ },
    async ({ page }) => {
      await page.goto("/offers?q=PROMO_100%25");
      await expect(page.getByText(/^1 offre trouvée$/)).toBeVisible();
      await page.goto("/offers?q=_");
      await expect(page.getByText(/^0 offre trouvée$/)).toBeVisible();
      await page.goto("/offers?q=ddr5");
      await expect(page.getByText(/^2 offres trouvées$/)).toBeVisible();
    },
  );

  test(
    "/offres redirects permanently to /offers with its query string",
    { tag: SERVER_READ },
    async ({ page, request }) => {
      const response = await request.get("/offres?type=loa", { maxRedirects: 0 });
      expect(response.status()).toBe(301);
      expect(response.headers().location).toBe("/offers?type=loa");
      await page.goto("/offres?type=loa");
      await expect(page).toHaveURL(/\/offers\?type=loa$/);
    },
  );

  test(
    "malformed filters are ignored, never an error",
    { tag: SERVER_READ },
    async ({ request }) => {
      for (const qs of [
        "min=abc",
        "max=-1",
        "type=%27",
        "engagement=maybe",
        "min=1e999",
        "page=999",
      ]) {
        const response = await request.get(`/offers?${qs}`);
        expect(response.status(), qs).toBe(200);
      }
    },
  );
});

test.describe("offer detail", () => {
  test(
    "shows the offer, its markdown, its specs and the price card",
    { tag: LAYOUT },
    async ({ page }) => {
      const response = await page.goto("/offers/epyc-performance-64");
      expect(response?.status()).toBe(200);
      const main = page.getByRole("main");
      await expect(main.getByRole("link", { name: "Retour aux offres" })).toHaveAttribute(
        "href",
        "/offers",
      );
      await expect(main.getByText("Serveur Dédié", { exact: true })).toBeVisible();
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("EPYC Performance 64");
      await expect(main.getByText("DED-EPYC-7543")).toBeVisible();
      await expect(
        main.getByRole("heading", { name: "La puissance brute pour vos charges critiques" }),
      ).toBeVisible();
      await expect(main.locator("strong", { hasText: "EPYC Performance 64" })).toBeVisible();
      await expect(main.getByRole("heading", { name: "Spécifications techniques" })).toBeVisible();
      // The specs' terms (the Configurer form has a `Stockage` group too).
      for (const label of ["Processeur", "Mémoire RAM", "Stockage", "Réseau"]) {
        await expect(main.locator("dt").getByText(label, { exact: true })).toBeVisible();
      }
      await expect(main.getByRole("heading", { name: "Conditions contractuelles" })).toBeVisible();
      await expect(main.getByText("Engagement requis")).toBeVisible();
      await expect(main.getByText("Engagement 12 mois")).toBeVisible();
      await expect(main.getByText(/899,99\s€\sHT/)).toBeVisible();
      await expect(main.getByText("Avec engagement")).toBeVisible();
      await expect(
        main.getByText("Besoin d'aide ? Contactez notre équipe commerciale"),
      ).toBeVisible();
      // Both links carry the offer and its configuration (issue 21).
      await expect(main.getByRole("link", { name: "Demander des informations" })).toHaveAttribute(
        "href",
        /^\/contact\?offer=\d+$/,
      );
      await main.getByRole("link", { name: "Commander maintenant" }).click();
      await expect(page).toHaveURL(/\/contact\?offer=\d+$/);
      await expect(page.getByLabel("Offre concernée (optionnel)")).toHaveValue(/^\d+$/);
      await expect(page.getByText("Offre sélectionnée :")).toBeVisible();
      await expect(page.getByRole("main")).toContainText(
        /EPYC Performance 64[\s\S]*DED-EPYC-7543[\s\S]*899,99\s€\sHT\/mois/,
      );
    },
  );

  test(
    "an offer without network or engagement shows neither",
    { tag: SERVER_READ },
    async ({ page }) => {
      await page.goto("/offers/starter-web");
      await expect(page.getByText("Sans engagement")).toBeVisible();
      await expect(page.getByText("Avec engagement")).toHaveCount(0);
    },
  );

  test(
    "a missing or inactive offer answers 404 with the spec's page",
    { tag: SERVER_READ },
    async ({ page }) => {
      for (const slug of ["xeon-legacy-ancienne-gamme", "does-not-exist", "%3Cscript%3E"]) {
        const response = await page.goto(`/offers/${slug}`);
        expect(response?.status(), slug).toBe(404);
        await expect(page.getByRole("heading", { name: "Offre non trouvée" })).toBeVisible();
        await expect(
          page.getByText("Cette offre n'existe pas ou n'est plus disponible."),
        ).toBeVisible();
        await expect(
          page.getByRole("main").getByRole("link", { name: "Voir nos offres" }),
        ).toHaveAttribute("href", "/offers");
      }
    },
  );
});

test("any other path answers 404 with a link home", async ({ page }) => {
  const response = await page.goto("/une/page/inexistante");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Retour à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
});
