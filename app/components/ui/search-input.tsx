import { Search } from "lucide-react";
import type * as React from "react";
import { Input } from "~/components/ui/input";
import { cn } from "~/components/ui/cn";

/** A search box: a type=search input with the magnifier inside it. Props go to the input. */
export function SearchInput({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input type="search" className={cn("pl-9", className)} {...props} />
    </div>
  );
}
