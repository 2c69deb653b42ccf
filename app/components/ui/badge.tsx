import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "~/components/ui/cn";

// Short classes defined in app.css (`.badge`, `.badge-<variant>`): a page of the admin list shows
// 150 badges, and the utility lists would weigh about 15 KB of its HTML budget.
const badgeVariants = cva("badge", {
  variants: {
    variant: {
      default: "badge-default",
      secondary: "badge-secondary",
      destructive: "badge-destructive",
      success: "badge-success",
      outline: "badge-outline",
    },
  },
  defaultVariants: { variant: "default" },
});

export function Badge({
  className,
  variant,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
