import { Loader2 } from "lucide-react";
import { cn } from "~/components/ui/cn";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center gap-2", className)}>
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      {label ? <span>{label}</span> : <span className="sr-only">Chargement…</span>}
    </span>
  );
}
