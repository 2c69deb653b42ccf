CREATE TABLE "offer_alerts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offer_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offer_id" integer NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "alert_id" integer;--> statement-breakpoint
ALTER TABLE "offer_alerts" ADD CONSTRAINT "offer_alerts_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offer_alerts_offer_email_unique" ON "offer_alerts" USING btree ("offer_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "offer_alerts_token_hash_unique" ON "offer_alerts" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "offer_alerts_waiting_idx" ON "offer_alerts" USING btree ("offer_id") WHERE "offer_alerts"."confirmed_at" is not null and "offer_alerts"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "offer_alerts_email_lower_idx" ON "offer_alerts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "offer_alerts_created_idx" ON "offer_alerts" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_alert_id_offer_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."offer_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_alert_idx" ON "mail_outbox" USING btree ("alert_id");