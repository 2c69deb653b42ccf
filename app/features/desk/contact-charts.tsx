import { bandLayout, formatHours, niceMax, scaled, weekLabel } from "~/components/admin/charts";
import { CONTACT_STATUS_LABELS, CONTACT_STATUS_LOOKS, CONTACT_STATUSES } from "~/lib/domain";
import {
  AXIS,
  Axis,
  ChartFigure,
  HEIGHT,
  tableClass,
  WeekLabel,
  WIDTH,
} from "~/components/admin/chart-parts";
import type { ContactCharts } from "./contact-charts.server";

// The dashboard's charts of contact requests (issue 22), drawn from chart-parts.tsx.

export function WeeklyRequestsChart({ weekly }: { weekly: ContactCharts["weekly"] }) {
  const totals = weekly.map((w) => CONTACT_STATUSES.reduce((sum, s) => sum + w.counts[s], 0));
  const max = niceMax(Math.max(0, ...totals));
  const bands = bandLayout(weekly.length, WIDTH);
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <ChartFigure
      title="Demandes par semaine"
      summary={`${total} demandes sur les ${weekly.length} dernières semaines, par statut actuel.`}
      table={
        <table className={tableClass}>
          <caption className="sr-only">Demandes par semaine et par statut</caption>
          <thead>
            <tr>
              <th scope="col">Semaine du</th>
              {CONTACT_STATUSES.map((s) => (
                <th key={s} scope="col">
                  {CONTACT_STATUS_LABELS[s]}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {weekly.map((w, i) => (
              <tr key={w.week}>
                <th scope="row">{weekLabel(w.week)}</th>
                {CONTACT_STATUSES.map((s) => (
                  <td key={s}>{w.counts[s]}</td>
                ))}
                <td>{totals[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <Axis max={max} />
      {weekly.map((w, i) => {
        let y = HEIGHT;
        return (
          <g key={w.week}>
            {CONTACT_STATUSES.map((s) => {
              const h = scaled(w.counts[s], max, HEIGHT - 12);
              y -= h;
              return h > 0 ? (
                <rect
                  key={s}
                  x={AXIS + bands[i].x}
                  y={y}
                  width={bands[i].width}
                  height={h}
                  className={CONTACT_STATUS_LOOKS[s].fill}
                />
              ) : null;
            })}
            <WeekLabel band={bands[i]} week={w.week} />
          </g>
        );
      })}
      <g>
        {CONTACT_STATUSES.map((s, i) => (
          <g key={s} transform={`translate(${AXIS + 8 + i * 110}, 4)`}>
            <rect width={10} height={10} className={CONTACT_STATUS_LOOKS[s].fill} />
            <text x={14} y={9} className="fill-foreground">
              {CONTACT_STATUS_LABELS[s]}
            </text>
          </g>
        ))}
      </g>
    </ChartFigure>
  );
}

export function TopOffersChart({
  offers,
  days,
}: {
  offers: ContactCharts["topOffers"];
  days: number;
}) {
  const max = niceMax(Math.max(0, ...offers.map((o) => o.count)));
  const row = HEIGHT / Math.max(1, offers.length);
  return (
    <ChartFigure
      title="Offres les plus demandées"
      summary={
        offers.length === 0
          ? `Aucune demande sur une offre ces ${days} derniers jours.`
          : `Les ${offers.length} offres les plus demandées ces ${days} derniers jours.`
      }
      table={
        <table className={tableClass}>
          <caption className="sr-only">Demandes par offre, {days} derniers jours</caption>
          <thead>
            <tr>
              <th scope="col">Offre</th>
              <th scope="col">Référence</th>
              <th scope="col">Demandes</th>
            </tr>
          </thead>
          <tbody>
            {offers.map((o) => (
              <tr key={`${o.title}-${o.reference}`}>
                <th scope="row">{o.title}</th>
                <td>{o.reference}</td>
                <td>{o.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      {offers.map((o, i) => {
        const w = scaled(o.count, max, WIDTH - 220);
        const y = i * row + 2;
        return (
          <g key={`${o.title}-${o.reference}`}>
            <text x={0} y={y + row / 2 + 4} className="fill-foreground">
              {o.title.length > 28 ? `${o.title.slice(0, 27)}…` : o.title}
            </text>
            <rect x={200} y={y} width={w} height={row * 0.7} className="fill-primary" />
            <text x={204 + w} y={y + row / 2 + 2} className="fill-foreground">
              {o.count}
            </text>
          </g>
        );
      })}
    </ChartFigure>
  );
}

export function FirstAnswerChart({ weeks }: { weeks: ContactCharts["firstAnswer"] }) {
  // An hour at least: answers within minutes read against an axis of 1 h.
  const max = niceMax(Math.max(1, ...weeks.map((w) => w.medianHours ?? 0)));
  const bands = bandLayout(weeks.length, WIDTH);
  return (
    <ChartFigure
      title="Délai médian de première réponse"
      summary="Par semaine de réception : temps médian jusqu'au premier changement de statut ou à la première note, en heures."
      table={
        <table className={tableClass}>
          <caption className="sr-only">Délai médian de première réponse par semaine</caption>
          <thead>
            <tr>
              <th scope="col">Semaine du</th>
              <th scope="col">Délai médian</th>
              <th scope="col">Demandes traitées</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.week}>
                <th scope="row">{weekLabel(w.week)}</th>
                <td>{formatHours(w.medianHours)}</td>
                <td>{w.answered}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <Axis max={max} unit=" h" />
      {weeks.map((w, i) => {
        const h = scaled(w.medianHours ?? 0, max, HEIGHT - 12);
        return (
          <g key={w.week}>
            {h > 0 ? (
              <rect
                x={AXIS + bands[i].x}
                y={HEIGHT - h}
                width={bands[i].width}
                height={h}
                className="fill-primary"
              />
            ) : null}
            <WeekLabel band={bands[i]} week={w.week} />
          </g>
        );
      })}
    </ChartFigure>
  );
}
