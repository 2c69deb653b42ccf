import { ChartFigure, ChartTable, HorizontalBars } from "~/components/admin/chart-parts";

// The dashboard's requests by source (issue 42): where the last days' requests came from.

const NO_SOURCE = "Sans source";

export function SourcesChart({
  sources,
  days,
}: {
  sources: { source: string | null; count: number }[];
  days: number;
}) {
  return (
    <ChartFigure
      title="Demandes par source"
      summary={
        sources.length === 0
          ? `Aucune demande ces ${days} derniers jours.`
          : `D'où viennent les demandes de ces ${days} derniers jours (utm_source).`
      }
      table={
        <ChartTable
          caption={<>Demandes par source, {days} derniers jours</>}
          columns={["Source", "Demandes"]}
        >
          {sources.map((s) => (
            <tr key={s.source ?? ""}>
              <th scope="row">{s.source ?? NO_SOURCE}</th>
              <td>{s.count}</td>
            </tr>
          ))}
        </ChartTable>
      }
    >
      <HorizontalBars
        rows={sources.map((s) => ({
          key: s.source ?? "",
          label: s.source ?? NO_SOURCE,
          count: s.count,
        }))}
      />
    </ChartFigure>
  );
}
