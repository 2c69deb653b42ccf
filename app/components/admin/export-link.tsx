import { Download } from "lucide-react";
import { Button } from "~/components/ui/button";

/**
 * `Exporter (CSV)` of an admin list: the file at once, or `Confirmez votre identité` first when
 * the session is not recent (the loader then gives the confirmation's address, not a download).
 */
export function ExportLink({ href }: { href: string }) {
  return (
    <Button asChild variant="outline">
      <a href={href} download={href.startsWith("/admin/confirm") ? undefined : true}>
        <Download aria-hidden="true" /> Exporter (CSV)
      </a>
    </Button>
  );
}
