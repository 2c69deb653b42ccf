import { bandLayout, formatHours, niceMax, scaled, weekLabel } from "~/components/admin/charts";
import { CONTACT_STATUS_LABELS, CONTACT_STATUS_LOOKS, CONTACT_STATUSES } from "~/lib/domain";
import {
  AXIS,
  Axis,
  ChartFigure,
  ChartTable,
  HEIGHT,
  HorizontalBars,
  Legend,
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
        <ChartTable
          caption="Demandes par semaine et par statut"
          columns={[
            "Semaine du",
            ...CONTACT_STATUSES.map((s) => CONTACT_STATUS_LABELS[s]),
            "Total",
          ]}
        >
          {weekly.map((w, i) => (
            <tr key={w.week}>
              <th scope="row">{weekLabel(w.week)}</th>
              {CONTACT_STATUSES.map((s) => (
                <td key={s}>{w.counts[s]}</td>
              ))}
              <td>{totals[i]}</td>
            </tr>
          ))}
        </ChartTable>
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
      <Legend
        series={CONTACT_STATUSES.map((s) => ({
          key: s,
          label: CONTACT_STATUS_LABELS[s],
          fill: CONTACT_STATUS_LOOKS[s].fill,
        }))}
      />
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
  return (
    <ChartFigure
      title="Offres les plus demandées"
      summary={
        offers.length === 0
          ? `Aucune demande sur une offre ces ${days} derniers jours.`
          : `Les ${offers.length} offres les plus demandées ces ${days} derniers jours.`
      }
      table={
        <ChartTable
          caption={<>Demandes par offre, {days} derniers jours</>}
          columns={["Offre", "Référence", "Demandes"]}
        >
          {offers.map((o) => (
            <tr key={`${o.title}-${o.reference}`}>
              <th scope="row">{o.title}</th>
              <td>{o.reference}</td>
              <td>{o.count}</td>
            </tr>
          ))}
        </ChartTable>
      }
    >
      <HorizontalBars
        rows={offers.map((o) => ({
          key: `${o.title}-${o.reference}`,
          label: o.title,
          count: o.count,
        }))}
      />
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
        <ChartTable
          caption="Délai médian de première réponse par semaine"
          columns={["Semaine du", "Délai médian", "Demandes traitées"]}
        >
          {weeks.map((w) => (
            <tr key={w.week}>
              <th scope="row">{weekLabel(w.week)}</th>
              <td>{formatHours(w.medianHours)}</td>
              <td>{w.answered}</td>
            </tr>
          ))}
        </ChartTable>
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
