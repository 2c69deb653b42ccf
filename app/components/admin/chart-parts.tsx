import { useId } from "react";
import { SectionCard } from "~/components/ui/card";
import { weekLabel } from "~/components/admin/charts";

// The parts of the dashboard's charts (issue 22): SVG drawn on the server, each with its figures
// as a table, nothing to run in the browser. The charts themselves are their features' (desk's
// contact-charts.tsx, quotes' quote-charts.tsx).

export const WIDTH = 600;
export const HEIGHT = 200;
export const AXIS = 32;
export const BOTTOM = 24;

/** The figure's frame: the drawing (hidden from screen readers) and its data table. */
export function ChartFigure({
  title,
  summary,
  children,
  table,
}: {
  title: string;
  summary: string;
  children: React.ReactNode;
  table: React.ReactNode;
}) {
  const id = useId();
  return (
    <SectionCard title={title}>
      <figure aria-labelledby={`${id}-caption`} className="space-y-3">
        <figcaption id={`${id}-caption`} className="text-sm text-muted-foreground">
          {summary}
        </figcaption>
        <svg
          viewBox={`0 0 ${WIDTH + AXIS} ${HEIGHT + BOTTOM}`}
          className="h-auto w-full max-w-3xl text-xs"
          aria-hidden="true"
          focusable="false"
        >
          {children}
        </svg>
        <details>
          <summary className="cursor-pointer text-sm font-medium">Données du graphique</summary>
          <div className="mt-2 overflow-x-auto">{table}</div>
        </details>
      </figure>
    </SectionCard>
  );
}

/** The value axis: its top and zero, and a base line. */
/** A week's label under its bar (both weekly charts). */
export function WeekLabel({ band, week }: { band: { x: number; width: number }; week: string }) {
  return (
    <text
      x={AXIS + band.x + band.width / 2}
      y={HEIGHT + 16}
      textAnchor="middle"
      className="fill-muted-foreground"
    >
      {weekLabel(week)}
    </text>
  );
}

export function Axis({ max, unit = "" }: { max: number; unit?: string }) {
  return (
    <g className="fill-muted-foreground">
      <text x={AXIS - 4} y={10} textAnchor="end">
        {max}
        {unit}
      </text>
      <text x={AXIS - 4} y={HEIGHT} textAnchor="end">
        0
      </text>
      <line x1={AXIS} x2={AXIS + WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-border" />
    </g>
  );
}

export const tableClass =
  "w-full text-left text-sm [&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1";
