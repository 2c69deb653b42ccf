import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { describeSavedSearch, savedSearchCountLabel } from "./saved-searches";

/**
 * `Recherches en attente` (issue 42): the confirmed saved searches' filters, most common first,
 * with their counts: the demand the catalogue does not meet yet. Each links to its listing.
 */
export function SearchesWaitingCard({
  searches,
}: {
  searches: { query: string; count: number }[];
}) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">Recherches en attente</h2>
      </CardHeader>
      <CardContent>
        {searches.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Aucune recherche enregistrée (« Me prévenir des nouvelles offres ») confirmée.
          </p>
        ) : (
          <ul className="space-y-1 text-sm">
            {searches.map((search) => (
              <li key={search.query} className="flex justify-between gap-4">
                <a
                  href={`/offers${search.query}`}
                  className="underline underline-offset-4 hover:text-primary"
                >
                  {describeSavedSearch(search.query)}
                </a>
                <span className="shrink-0 text-muted-foreground">
                  {savedSearchCountLabel(search.count)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
