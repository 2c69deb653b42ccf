import type { ReactNode } from "react";
import { SpriteIcon } from "~/components/icon-sprite";
import { Badge } from "~/components/ui/badge";
import type { OfferType } from "~/lib/domain";

/** An offer's type as a badge: dedicated servers in the primary colour. */
export function OfferTypeBadge({ type, children }: { type: OfferType; children: ReactNode }) {
  return <Badge variant={type === "dedicated" ? "default" : "secondary"}>{children}</Badge>;
}

/** 'En vedette'. Its star is the page's sprite: the page draws an IconSprite with `star`. */
export function FeaturedBadge() {
  return (
    <Badge variant="outline" className="gap-1">
      <SpriteIcon id="star" className="size-3" /> En vedette
    </Badge>
  );
}
