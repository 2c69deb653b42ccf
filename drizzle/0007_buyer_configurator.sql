CREATE TYPE "public"."delivery_state" AS ENUM('stock_24h', 'stock_72h', 'on_order', 'sold_out');--> statement-breakpoint
CREATE TABLE "datacenters" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_rates" (
	"months" integer PRIMARY KEY NOT NULL,
	"coefficient" numeric(8, 5) NOT NULL,
	CONSTRAINT "lease_rates_positive" CHECK ("lease_rates"."months" > 0 and "lease_rates"."coefficient" > 0)
);
--> statement-breakpoint
ALTER TABLE "offers" DROP CONSTRAINT "offers_numbers_nonnegative";--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "configuration" jsonb;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "delivery" "delivery_state" DEFAULT 'stock_24h' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "delivery_days" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "datacenter" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "financed_amount" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "lease_durations" integer[];--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "options" jsonb;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_datacenter_datacenters_code_fk" FOREIGN KEY ("datacenter") REFERENCES "public"."datacenters"("code") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "offers_datacenter_idx" ON "offers" USING btree ("datacenter");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_numbers_nonnegative" CHECK (coalesce("offers"."cpu_cores", 0) >= 0 and coalesce("offers"."ram_gb", 0) >= 0 and coalesce("offers"."storage_tb", 0) >= 0 and coalesce("offers"."bandwidth_gbps", 0) >= 0 and coalesce("offers"."setup_fee", 0) >= 0 and coalesce("offers"."loa_months", 0) >= 0 and coalesce("offers"."loa_purchase_option", 0) >= 0 and coalesce("offers"."delivery_days", 0) >= 0);