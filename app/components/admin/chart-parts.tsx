import { useId } from "react";
import { SectionCard } from "~/components/ui/card";
import { niceMax, scaled, weekLabel } from "~/components/admin/charts";

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

/** The value axis: its top and zero, and a base line. */
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

/** A chart's figures: its caption for screen readers, its column heads, its rows (`children`). */
export function ChartTable({
  caption,
  columns,
  children,
}: {
  caption: React.ReactNode;
  columns: readonly string[];
  children: React.ReactNode;
}) {
  return (
    <table className={tableClass}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** One horizontal bar a row, its label on the left (cut at 28 characters) and its count after it. */
export function HorizontalBars({
  rows,
}: {
  rows: readonly { key: string; label: string; count: number }[];
}) {
  const max = niceMax(Math.max(0, ...rows.map((r) => r.count)));
  const row = HEIGHT / Math.max(1, rows.length);
  return rows.map((r, i) => {
    const w = scaled(r.count, max, WIDTH - 220);
    const y = i * row + 2;
    return (
      <g key={r.key}>
        <text x={0} y={y + row / 2 + 4} className="fill-foreground">
          {r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label}
        </text>
        <rect x={200} y={y} width={w} height={row * 0.7} className="fill-primary" />
        <text x={204 + w} y={y + row / 2 + 2} className="fill-foreground">
          {r.count}
        </text>
      </g>
    );
  });
}

/** The series' colours and names, along the top of a weekly chart. */
export function Legend({
  series,
}: {
  series: readonly { key: string; label: string; fill: string }[];
}) {
  return (
    <g>
      {series.map((s, i) => (
        <g key={s.key} transform={`translate(${AXIS + 8 + i * 110}, 4)`}>
          <rect width={10} height={10} className={s.fill} />
          <text x={14} y={9} className="fill-foreground">
            {s.label}
          </text>
        </g>
      ))}
    </g>
  );
}
