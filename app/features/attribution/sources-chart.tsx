import { ChartFigure, HEIGHT, tableClass, WIDTH } from "~/components/admin/chart-parts";
import { niceMax, scaled } from "~/components/admin/charts";

// The dashboard's requests by source (issue 42): where the last days' requests came from.

const NO_SOURCE = "Sans source";

export function SourcesChart({
  sources,
  days,
}: {
  sources: { source: string | null; count: number }[];
  days: number;
}) {
  const max = niceMax(Math.max(0, ...sources.map((s) => s.count)));
  const row = HEIGHT / Math.max(1, sources.length);
  return (
    <ChartFigure
      title="Demandes par source"
      summary={
        sources.length === 0
          ? `Aucune demande ces ${days} derniers jours.`
          : `D'où viennent les demandes de ces ${days} derniers jours (utm_source).`
      }
      table={
        <table className={tableClass}>
          <caption className="sr-only">Demandes par source, {days} derniers jours</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Demandes</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((s) => (
              <tr key={s.source ?? ""}>
                <th scope="row">{s.source ?? NO_SOURCE}</th>
                <td>{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      {sources.map((s, i) => {
        const w = scaled(s.count, max, WIDTH - 220);
        const y = i * row + 2;
        const label = s.source ?? NO_SOURCE;
        return (
          <g key={s.source ?? ""}>
            <text x={0} y={y + row / 2 + 4} className="fill-foreground">
              {label.length > 28 ? `${label.slice(0, 27)}…` : label}
            </text>
            <rect x={200} y={y} width={w} height={row * 0.7} className="fill-primary" />
            <text x={204 + w} y={y + row / 2 + 2} className="fill-foreground">
              {s.count}
            </text>
          </g>
        );
      })}
    </ChartFigure>
  );
}
