DROP INDEX "offers_title_trgm_idx";--> statement-breakpoint
DROP INDEX "offers_reference_trgm_idx";--> statement-breakpoint
DROP INDEX "offers_cpu_trgm_idx";--> statement-breakpoint
DROP INDEX "offers_ram_trgm_idx";--> statement-breakpoint
DROP INDEX "offers_active_created_idx";--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title || chr(31) || reference || chr(31) || cpu || chr(31) || ram)) STORED;--> statement-breakpoint
CREATE INDEX "offers_search_trgm_idx" ON "offers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "offers_active_created_idx" ON "offers" USING btree ("is_active","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);