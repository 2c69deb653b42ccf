import type { LucideIcon } from "lucide-react";
import { cn } from "~/components/ui/cn";

/**
 * Icons drawn many times on one page (the listing's cards) are defined once in an inline sprite
 * and referenced with <use>: a third less HTML and hundreds fewer elements to parse and lay out.
 * Render <IconSprite> once, before the <SpriteIcon>s that point to it.
 */
export function IconSprite({ icons }: { icons: Record<string, LucideIcon> }) {
  return (
    <svg aria-hidden="true" focusable="false" className="absolute size-0 overflow-hidden">
      {Object.entries(icons).map(([id, Icon]) => (
        <symbol key={id} id={`icon-${id}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  );
}

export function SpriteIcon({
  id,
  className,
  label,
}: {
  id: string;
  className?: string;
  /** An accessible name when the icon says something the text does not. */
  label?: string;
}) {
  return (
    <svg
      className={cn("lucide", className)}
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
    >
      <use href={`#icon-${id}`} />
    </svg>
  );
}
