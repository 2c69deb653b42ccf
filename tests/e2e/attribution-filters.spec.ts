import { expect, noJs, test } from "./fixtures";

// Issue 42's origin (`src`) through the listing's own forms, with and without JavaScript: a buyer
// from a campaign filters, clears, compares and orders, and the origin stays in every address,
// so that the request is still counted for the campaign.

const SRC = /src=newsletter~~novembre/;

test("a campaign's buyer filters, clears and compares without losing the visit's origin", async ({
  page,
}, testInfo) => {
  const jsOff = noJs(testInfo);
  await page.goto("/offers?utm_source=newsletter&utm_campaign=novembre");

  // The filter form: a search applied (a GET form without JavaScript, the live filters with it).
  await page.getByLabel("Rechercher").fill("epyc");
  if (jsOff) await page.getByRole("button", { name: "Appliquer les filtres" }).click();
  await expect(page).toHaveURL(/\/offers\?q=epyc&src=newsletter~~novembre$/);
  await expect(page.getByRole("link", { name: "Effacer les filtres" })).toHaveAttribute(
    "href",
    "/offers?src=newsletter~~novembre",
  );

  // The comparison, from the cards' boxes, keeps it in its address and its links.
  await page.getByRole("checkbox", { name: "Comparer EPYC Performance 64" }).check();
  await page.getByRole("checkbox", { name: "Comparer EPYC Bare Metal 9254" }).check();
  await page.getByRole("button", { name: "Comparer la sélection" }).click();
  await expect(page).toHaveURL(/\/comparer\?offres=[a-z0-9,-]+&src=newsletter~~novembre$/);
  await expect(page.getByRole("link", { name: "Retour aux offres" })).toHaveAttribute(
    "href",
    "/offers?src=newsletter~~novembre",
  );
  await page.getByRole("link", { name: "Commander EPYC Performance 64" }).click();
  await expect(page).toHaveURL(/\/contact\?offer=\d+&src=newsletter~~novembre$/);
  await expect(page).toHaveURL(SRC);

  // A page past the last one goes to the last, the origin with it.
  await page.goto("/offers?q=epyc&page=99&src=newsletter~~novembre");
  await expect(page).toHaveURL(/\/offers\?q=epyc&src=newsletter~~novembre$/);
});
