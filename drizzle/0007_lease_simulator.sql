CREATE TABLE "lease_rates" (
	"months" integer PRIMARY KEY NOT NULL,
	"coefficient" numeric(8, 5) NOT NULL,
	CONSTRAINT "lease_rates_positive" CHECK ("lease_rates"."months" > 0 and "lease_rates"."coefficient" > 0)
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "financed_amount" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "lease_durations" integer[];