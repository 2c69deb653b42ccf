import type * as React from "react";
import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { cn } from "~/components/ui/cn";

/** The discreet 'Retour à…' link above a page's title. */
export function BackLink({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Link
      to={to}
      className={cn(
        "inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-primary",
        className,
      )}
    >
      <ArrowLeft className="size-4" aria-hidden="true" /> {children}
    </Link>
  );
}
