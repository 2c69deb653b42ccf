import type { ReactNode } from "react";
import { SpriteIcon } from "~/components/icon-sprite";
import { Badge } from "~/components/ui/badge";
import { deliveryLabel, deliveryTone, type DeliverySource } from "~/lib/offer-fields";
import type { OfferType } from "~/lib/domain";
import { cn } from "~/components/ui/cn";

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

const TONE_CLASS = {
  ok: "bg-emerald-600",
  wait: "bg-amber-500",
  none: "bg-muted-foreground",
} as const;

/** 'En stock — livraison sous 24 h · Paris': when and where (issue 21). */
export function DeliveryLine({
  offer,
  className,
}: {
  offer: DeliverySource & { datacenterName: string | null };
  className?: string;
}) {
  return (
    <p className={cn("flex items-center gap-2 text-sm", className)} data-delivery={offer.delivery}>
      <span
        className={cn("inline-block size-2 shrink-0 rounded-full", TONE_CLASS[deliveryTone(offer)])}
        aria-hidden="true"
      />
      <span>
        {deliveryLabel(offer)}
        {offer.datacenterName ? (
          <span className="text-muted-foreground"> · Datacenter {offer.datacenterName}</span>
        ) : null}
      </span>
    </p>
  );
}
