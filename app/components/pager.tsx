import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { useVisitSource } from "~/hooks/use-visit-source";
import { withSource } from "~/lib/attribution";

/** 'Précédent' / 'Page N sur M' / 'Suivant' as plain links: paging works without JavaScript. */
export function Pager({
  page,
  pageCount,
  href,
  className = "mt-8",
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  className?: string;
}) {
  // A public visit's origin (issue 42) follows the pages; the admin area has none.
  const src = useVisitSource();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className={`${className} flex items-center justify-center gap-4`}>
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={withSource(href(page - 1), src)} rel="prev">
            <ChevronLeft aria-hidden="true" /> Précédent
          </Link>
        </Button>
      ) : null}
      <span className="text-sm text-muted-foreground">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? (
        <Button asChild variant="outline" size="sm">
          <Link to={withSource(href(page + 1), src)} rel="next">
            Suivant <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
