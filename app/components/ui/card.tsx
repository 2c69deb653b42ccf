import type { LucideIcon } from "lucide-react";
import type * as React from "react";
import { cn } from "~/components/ui/cn";

export function Card({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      className={cn("rounded-lg border bg-card text-card-foreground shadow-sm", className)}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 p-6", className)} {...props} />;
}

export function CardTitle({
  className,
  as: Tag = "h3",
  ...props
}: React.ComponentProps<"h3"> & { as?: "h2" | "h3" | "h4" }) {
  return (
    <Tag
      className={cn("text-xl font-semibold leading-tight tracking-tight", className)}
      {...props}
    />
  );
}

/** A card's h2 led by its icon (the cards of a request's page). */
export function IconCardTitle({ icon: Icon, children }: { icon: LucideIcon; children: string }) {
  return (
    <CardTitle as="h2" className="flex items-center gap-2">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {` ${children}`}
    </CardTitle>
  );
}

export function CardDescription({ className, ...props }: React.ComponentProps<"p">) {
  return <p className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

export function CardContent({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("p-6 pt-0", className)} {...props} />;
}

export function CardFooter({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("flex items-center p-6 pt-0", className)} {...props} />;
}

/** The common card: a titled section (h2 by default) with its content. */
export function SectionCard({
  title,
  description,
  as = "h2",
  children,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  as?: "h2" | "h3";
  children?: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as={as}>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      {children ? <CardContent>{children}</CardContent> : null}
    </Card>
  );
}
