import { Cpu, HardDrive, MemoryStick, Star } from "lucide-react";
import { IconSprite, SpriteIcon } from "~/components/icon-sprite";
import type { ComponentProps } from "react";
import { DeliveryLine, FeaturedBadge, OfferTypeBadge } from "~/components/offer-badges";
import { Card } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { OFFER_TYPE_LABELS, type OfferType } from "~/lib/domain";
import { amount, formatAmount, monthlyParts } from "~/lib/money";
import { useRootData } from "~/hooks/use-root-data";
import { useVisitSource } from "~/hooks/use-visit-source";
import { withSource } from "~/lib/attribution";
import type { SiteConfig } from "~/lib/site";

export type OfferCardProps = {
  offer: {
    slug: string;
    title: string;
    reference: string;
    type: OfferType;
    featured: boolean;
    cpu: string;
    ram: string;
    storage: string;
    price: string;
    setupFee: string | null;
    engagement: boolean;
    contractType: string | null;
  } & ComponentProps<typeof DeliveryLine>["offer"];
  /** The id of the GET form to /comparer that the card's 'Comparer' checkbox belongs to. */
  compareForm?: string;
  /** The title's level: 2 in the listing, 3 below a section's heading. */
  headingLevel?: 2 | 3;
};

/** The icons of the cards: render once on any page that shows OfferCards, before them. */
export function OfferCardIcons() {
  return <IconSprite icons={{ star: Star, cpu: Cpu, memory: MemoryStick, storage: HardDrive }} />;
}

export function OfferCard({ offer, compareForm, headingLevel = 2 }: OfferCardProps) {
  const { pricing } = useRootData().site;
  const src = useVisitSource();
  return (
    <OfferCardHtml
      offer={offer}
      compareForm={compareForm}
      headingLevel={headingLevel}
      pricing={pricing}
      src={src}
    />
  );
}

function OfferCardHtml({
  offer,
  compareForm,
  headingLevel,
  pricing,
  src,
}: OfferCardProps & { pricing: SiteConfig["pricing"]; src: string | null }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const setupFee = offer.setupFee === null ? null : amount(offer.setupFee, pricing);
  const price = monthlyParts(offer.price, pricing);
  // Rendered (style, layout, paint) only near the viewport: a listing's cards below the first screen
  // were half of the style and layout work before the first paint (Lighthouse mobile).
  return (
    <Card className="relative flex h-full flex-col [contain-intrinsic-size:auto_24rem] [content-visibility:auto] transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <div className="flex flex-1 flex-col gap-4 p-6">
        <div className="flex flex-wrap items-center gap-2">
          <OfferTypeBadge type={offer.type}>{OFFER_TYPE_LABELS[offer.type]}</OfferTypeBadge>
          {offer.featured ? <FeaturedBadge /> : null}
          {compareForm ? (
            // Above the card's stretched link; a generous hit area for fingers.
            <label className="relative z-10 -my-2 ml-auto flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-muted">
              <Checkbox name="offres" value={offer.slug} form={compareForm} />
              Comparer<span className="sr-only"> {offer.title}</span>
            </label>
          ) : null}
        </div>
        <div>
          <Heading className="text-lg font-semibold leading-snug">
            {/* The stretched link makes the whole card clickable with one accessible name. */}
            <a
              href={withSource(`/offers/${offer.slug}`, src)}
              className="after:absolute after:inset-0 focus-visible:outline-none"
            >
              {offer.title}
            </a>
          </Heading>
          <p className="text-sm text-muted-foreground">Réf. {offer.reference}</p>
        </div>
        <ul className="space-y-2 text-sm">
          {(
            [
              ["cpu", "Processeur", offer.cpu],
              ["memory", "Mémoire", offer.ram],
              ["storage", "Stockage", offer.storage],
            ] as const
          ).map(([icon, label, value]) => (
            <li key={icon} className="flex items-start gap-2">
              <SpriteIcon id={icon} className="mt-0.5 size-4 shrink-0 text-primary" label={label} />
              {value}
            </li>
          ))}
        </ul>
        <DeliveryLine offer={offer} />
        <div className="mt-auto flex items-end justify-between gap-2 border-t pt-4">
          <div>
            <p className="text-2xl font-bold text-primary">
              {price.amount}
              <span className="text-sm font-medium"> {price.suffix}</span>
            </p>
            {/* A fee is disclosed where the price is (an offered setup is said on the offer page). */}
            {setupFee && setupFee.ht > 0 ? (
              <p className="text-xs text-muted-foreground">
                + {formatAmount(setupFee, pricing.display)} de mise en service
              </p>
            ) : null}
          </div>
          <p className="text-right text-xs text-muted-foreground">
            {offer.engagement ? "Avec engagement" : "Sans engagement"}
            {offer.contractType ? (
              <>
                <br />
                {offer.contractType}
              </>
            ) : null}
          </p>
        </div>
      </div>
    </Card>
  );
}
