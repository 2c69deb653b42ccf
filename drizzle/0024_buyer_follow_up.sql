CREATE TABLE "offer_views" (
	"offer_id" integer NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "offer_views_offer_id_day_pk" PRIMARY KEY("offer_id","day")
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "medium" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "campaign" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "term" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "content" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "referrer" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "follow_token_hash" text;--> statement-breakpoint
ALTER TABLE "offer_views" ADD CONSTRAINT "offer_views_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_requests_source_idx" ON "contact_requests" USING btree ("source");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_requests_follow_token_key" ON "contact_requests" USING btree ("follow_token_hash");