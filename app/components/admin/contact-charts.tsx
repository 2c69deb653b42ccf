import { useId } from "react";
import { SectionCard } from "~/components/ui/card";
import { bandLayout, formatHours, niceMax, scaled, weekLabel } from "~/lib/charts";
import { CONTACT_STATUS_LABELS, CONTACT_STATUS_LOOKS, CONTACT_STATUSES } from "~/lib/domain";
import type { ContactCharts } from "~/features/desk/contact-charts.server";
import type { QuoteCharts } from "~/features/quotes/quote-charts.server";

// The dashboard's charts (issue 22): SVG drawn on the server, each with its figures as a table,
// nothing to run in the browser.

const WIDTH = 600;
const HEIGHT = 200;
const AXIS = 32;
const BOTTOM = 24;

/** The figure's frame: the drawing (hidden from screen readers) and its data table. */
function ChartFigure({
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
function WeekLabel({ band, week }: { band: { x: number; width: number }; week: string }) {
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

function Axis({ max, unit = "" }: { max: number; unit?: string }) {
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

const tableClass = "w-full text-left text-sm [&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1";

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
