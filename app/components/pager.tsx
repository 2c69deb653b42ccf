import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

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
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className={`${className} flex items-center justify-center gap-4`}>
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page - 1)} rel="prev">
            <ChevronLeft aria-hidden="true" /> Précédent
          </Link>
        </Button>
      ) : null}
      <span className="text-sm text-muted-foreground">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page + 1)} rel="next">
            Suivant <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
