CREATE TABLE "offer_alert_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"alert_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offer_alert_links" ADD CONSTRAINT "offer_alert_links_alert_id_offer_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."offer_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_alert_links_alert_idx" ON "offer_alert_links" USING btree ("alert_id");--> statement-breakpoint
-- The links of mails already sent keep working.
INSERT INTO "offer_alert_links" ("token_hash", "alert_id") SELECT "token_hash", "id" FROM "offer_alerts" WHERE "token_hash" IS NOT NULL;
