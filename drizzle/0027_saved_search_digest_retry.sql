ALTER TABLE "saved_search_offers" ADD COLUMN "mail_id" integer;--> statement-breakpoint
CREATE INDEX "saved_search_offers_offer_idx" ON "saved_search_offers" USING btree ("offer_id");