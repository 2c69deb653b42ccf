// The company of the SIREN typed on the contact form (issue 41), loaded only when SIRENE_API_URL is
// set: once the field holds a valid SIREN, /entreprise/<siren> says what the register knows; the
// line under the field shows it (or warns of a closed company), and an empty `Société` is filled.
// Without JavaScript the server names the company of a posted SIREN itself.
import type { CompanyAnswer } from "~/routes/resources/company-lookup";
import * as dom from "~/lib/dom-hooks";
import { compactSiren, isValidSiren } from "~/lib/siren";

function start(status: HTMLElement) {
  const form = status.closest("form");
  const siren = form?.querySelector<HTMLInputElement>("input[name=siren]");
  const company = form?.querySelector<HTMLInputElement>("input[name=company]");
  const endpoint = status.getAttribute(dom.COMPANY_LOOKUP);
  if (!siren || !company || !endpoint) return;
  let asked = "";
  // What this script wrote in `Société`: replaced by another SIREN's company, never what was typed.
  let filled = "";
  let pending: AbortController | undefined;

  const show = (text: string, warning = false) => {
    status.textContent = text;
    status.toggleAttribute(dom.COMPANY_WARNING, warning);
  };

  const look = async () => {
    const value = compactSiren(siren.value);
    if (value === asked) return;
    asked = value;
    pending?.abort();
    show("");
    if (!isValidSiren(value)) return;
    const request = (pending = new AbortController());
    try {
      const response = await fetch(`${endpoint}/${value}`, {
        signal: request.signal,
        headers: { Accept: "application/json" },
      });
      const answer = (await response.json()) as CompanyAnswer;
      if (asked !== value || !("found" in answer) || !answer.found) return;
      if (company.value.trim() === "" || company.value === filled) {
        company.value = filled = answer.name;
      }
      show(answer.warning ?? answer.summary, answer.warning !== null);
    } catch {
      // No answer (aborted, offline, limited): the form works as typed.
    }
  };

  siren.addEventListener("input", look);
  // A SIREN kept by the browser (back, a refused post) is looked up as well.
  look();
}

const status = document.querySelector(dom.bySelector(dom.COMPANY_LOOKUP));
if (status instanceof HTMLElement) start(status);
