import { bandLayout, niceMax, scaled, weekLabel } from "~/components/admin/charts";
import {
  AXIS,
  Axis,
  ChartFigure,
  ChartTable,
  HEIGHT,
  Legend,
  WeekLabel,
  WIDTH,
} from "~/components/admin/chart-parts";
import type { QuoteCharts } from "./quote-charts.server";

// The dashboard's charts of quotes (issue 22), drawn from chart-parts.tsx.

const percent = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 0 });

/** Quotes sent and quotes accepted each week (each by its own date), side by side. */
export function WeeklyQuotesChart({ weekly }: { weekly: QuoteCharts["weekly"] }) {
  const max = niceMax(Math.max(0, ...weekly.map((w) => Math.max(w.sent, w.accepted))));
  const bands = bandLayout(weekly.length, WIDTH);
  const sent = weekly.reduce((sum, w) => sum + w.sent, 0);
  const accepted = weekly.reduce((sum, w) => sum + w.accepted, 0);
  const series = [
    { key: "sent", label: "Envoyés", fill: "fill-primary" },
    { key: "accepted", label: "Acceptés", fill: "fill-success" },
  ] as const;
  return (
    <ChartFigure
      title="Devis envoyés et acceptés par semaine"
      summary={`${sent} devis envoyés et ${accepted} acceptés sur les ${weekly.length} dernières semaines, chacun compté la semaine de son envoi ou de son acceptation.`}
      table={
        <ChartTable
          caption="Devis envoyés et acceptés par semaine"
          columns={["Semaine du", "Envoyés", "Acceptés"]}
        >
          {weekly.map((w) => (
            <tr key={w.week}>
              <th scope="row">{weekLabel(w.week)}</th>
              <td>{w.sent}</td>
              <td>{w.accepted}</td>
            </tr>
          ))}
        </ChartTable>
      }
    >
      <Axis max={max} />
      {weekly.map((w, i) => (
        <g key={w.week}>
          {series.map((s, j) => {
            const h = scaled(w[s.key], max, HEIGHT - 12);
            const width = bands[i].width / 2;
            return h > 0 ? (
              <rect
                key={s.key}
                x={AXIS + bands[i].x + j * width}
                y={HEIGHT - h}
                width={width}
                height={h}
                className={s.fill}
              />
            ) : null;
          })}
          <WeekLabel band={bands[i]} week={w.week} />
        </g>
      ))}
      <Legend series={series} />
    </ChartFigure>
  );
}

/** Accepted ÷ sent among the quotes sent in the last days, as one bar out of 100 %. */
export function QuoteAcceptanceChart({ rate }: { rate: QuoteCharts["rate"] }) {
  const share = rate.rate ?? 0;
  const bar = HEIGHT / 3;
  return (
    <ChartFigure
      title={`Taux d'acceptation sur ${rate.days} jours`}
      summary={
        rate.rate === null
          ? `Aucun devis envoyé ces ${rate.days} derniers jours.`
          : `${percent.format(share)} des devis envoyés ces ${rate.days} derniers jours ont été acceptés (${rate.accepted} sur ${rate.sent}). Les devis remplacés sans réponse ne sont pas comptés.`
      }
      table={
        <ChartTable
          caption={<>Taux d&apos;acceptation des devis sur {rate.days} jours</>}
          columns={["Devis envoyés", "Devis acceptés", "Taux d'acceptation"]}
        >
          <tr>
            <td>{rate.sent}</td>
            <td>{rate.accepted}</td>
            <td>{rate.rate === null ? "—" : percent.format(share)}</td>
          </tr>
        </ChartTable>
      }
    >
      <rect x={AXIS} y={bar} width={WIDTH} height={bar} className="fill-muted" />
      <rect
        x={AXIS}
        y={bar}
        width={scaled(share, 1, WIDTH)}
        height={bar}
        className="fill-success"
      />
      <text x={AXIS} y={bar * 2 + 24} className="fill-foreground">
        {rate.rate === null ? "—" : percent.format(share)}
      </text>
      <text x={AXIS + WIDTH} y={bar * 2 + 24} textAnchor="end" className="fill-muted-foreground">
        100 %
      </text>
    </ChartFigure>
  );
}
