import { Columns3, X } from "lucide-react";
import { Button } from "~/components/ui/button";
import { COMPARE_PATH, MAX_COMPARED } from "./compare";
import { useVisitSource } from "~/hooks/use-visit-source";
import { SOURCE_PARAM } from "~/lib/attribution";
import * as dom from "~/lib/dom-hooks";

/**
 * Without JavaScript: a GET form to /comparer that sends the checked boxes of this page. With
 * JavaScript, app/client/compare.ts keeps the selection across pages and filters and shows this
 * form as a bar at the bottom of the screen once an offer is checked (styles in app.css).
 */
export function CompareBar() {
  const src = useVisitSource();
  return (
    <form
      id={dom.COMPARE_FORM_ID}
      method="get"
      action={COMPARE_PATH}
      aria-label="Comparer des offres"
      {...dom.hook(dom.COMPARE_BAR)}
      {...dom.hook(dom.COMPARE_MAX, MAX_COMPARED)}
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-card p-3 text-sm"
    >
      {src ? <input type="hidden" name={SOURCE_PARAM} value={src} /> : null}
      <p {...dom.hook(dom.COMPARE_STATUS)} aria-live="polite">
        Cochez « Comparer » sur 2 ou {MAX_COMPARED} offres pour les voir côte à côte.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="ghost" size="sm" {...dom.hook(dom.COMPARE_CLEAR)} hidden>
          <X aria-hidden="true" /> Vider
        </Button>
        <Button type="submit" size="sm">
          <Columns3 aria-hidden="true" /> Comparer la sélection
        </Button>
      </div>
    </form>
  );
}
