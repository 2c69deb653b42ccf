ALTER TABLE "offers" ADD COLUMN "available_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Existing offers: those deliverable now date from their last change (what the feed showed until
-- now), the others from their creation (the date moves when they become deliverable).
UPDATE "offers" SET "available_since" = CASE WHEN "delivery" IN ('stock_24h', 'stock_72h') THEN "updated_at" ELSE "created_at" END;
