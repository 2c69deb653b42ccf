import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

// Two looks of one fact: the offer page's specifications (icon beside a label above the value)
// and the dashboard's counters (a bordered tile, the value on the right).
const LOOKS = {
  spec: {
    box: "relative pl-8",
    term: "text-sm text-muted-foreground",
    icon: "absolute left-0 top-0.5 size-5 text-primary",
    value: "font-medium",
  },
  tile: {
    box: "flex items-center gap-3 rounded-md border p-4",
    term: "flex items-center gap-3 text-sm text-muted-foreground",
    icon: "size-5 text-primary",
    value: "ml-auto text-xl font-semibold",
  },
} as const;

/** One `<dt>`/`<dd>` pair of a `<dl>` with its icon (inside the `<dt>`: a `<dl>` only groups pairs in a `<div>`). */
export function IconFact({
  icon: Icon,
  label,
  children,
  look = "spec",
}: {
  icon: LucideIcon;
  label: string;
  children: ReactNode;
  look?: keyof typeof LOOKS;
}) {
  const classes = LOOKS[look];
  return (
    <div className={classes.box}>
      <dt className={classes.term}>
        <Icon className={classes.icon} aria-hidden="true" />
        {label}
      </dt>
      <dd className={classes.value}>{children}</dd>
    </div>
  );
}
