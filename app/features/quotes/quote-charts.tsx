import { bandLayout, niceMax, scaled, weekLabel } from "~/components/admin/charts";
import {
  AXIS,
  Axis,
  ChartFigure,
  HEIGHT,
  tableClass,
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
        <table className={tableClass}>
          <caption className="sr-only">Devis envoyés et acceptés par semaine</caption>
          <thead>
            <tr>
              <th scope="col">Semaine du</th>
              <th scope="col">Envoyés</th>
              <th scope="col">Acceptés</th>
            </tr>
          </thead>
          <tbody>
            {weekly.map((w) => (
              <tr key={w.week}>
                <th scope="row">{weekLabel(w.week)}</th>
                <td>{w.sent}</td>
                <td>{w.accepted}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
        <table className={tableClass}>
          <caption className="sr-only">Taux d'acceptation des devis sur {rate.days} jours</caption>
          <thead>
            <tr>
              <th scope="col">Devis envoyés</th>
              <th scope="col">Devis acceptés</th>
              <th scope="col">Taux d'acceptation</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{rate.sent}</td>
              <td>{rate.accepted}</td>
              <td>{rate.rate === null ? "—" : percent.format(share)}</td>
            </tr>
          </tbody>
        </table>
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
