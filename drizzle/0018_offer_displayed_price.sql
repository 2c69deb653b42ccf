ALTER TABLE "offers" ADD COLUMN "priced_months" integer;--> statement-breakpoint
-- One price per offer (decision 038): an LOA offer with a financed amount takes the rent of its
-- default duration on the lease scale (its stated duration if the scale prices it and it offers
-- it, else the first it offers that the scale prices), with the purchase option that goes with it.
-- Rounded half up to the cent, as app/lib/lease.ts does (numeric round on positive amounts).
WITH option_percent AS (
  SELECT coalesce(
    (SELECT replace(value, ',', '.')::numeric FROM app_state WHERE key = 'lease_purchase_option_percent'),
    0
  ) AS percent
), priced AS (
  SELECT o.id, r.months,
    round(o.financed_amount * r.coefficient, 2) AS price,
    round(o.financed_amount * p.percent / 100, 2) AS option
  FROM offers o
  CROSS JOIN option_percent p
  CROSS JOIN LATERAL (
    SELECT lr.months, lr.coefficient FROM lease_rates lr
    WHERE lr.months = ANY(o.lease_durations)
    ORDER BY coalesce(lr.months = o.loa_months, false) DESC, lr.months
    LIMIT 1
  ) r
  WHERE o.type = 'loa' AND o.financed_amount IS NOT NULL
)
UPDATE offers SET
  price = priced.price,
  loa_purchase_option = priced.option,
  priced_months = priced.months,
  updated_at = CASE
    WHEN offers.price = priced.price AND offers.loa_purchase_option IS NOT DISTINCT FROM priced.option
    THEN offers.updated_at ELSE now() END
FROM priced
WHERE offers.id = priced.id;--> statement-breakpoint
-- Cached pages, ETags and every instance's memo of the catalogue are keyed by its version.
UPDATE app_state SET value = (value::bigint + 1)::text, updated_at = now() WHERE key = 'catalogue_version';
