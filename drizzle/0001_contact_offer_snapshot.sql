ALTER TABLE "contact_requests" ADD COLUMN "offer_title" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "offer_reference" text;--> statement-breakpoint
-- Backfill: requests stored before this migration keep the title and reference of their offer.
UPDATE "contact_requests" SET "offer_title" = "offers"."title", "offer_reference" = "offers"."reference" FROM "offers" WHERE "contact_requests"."offer_id" = "offers"."id";
