ALTER TYPE "public"."contact_status" ADD VALUE 'quote_sent';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'accepted';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'declined';--> statement-breakpoint
ALTER TABLE "quotes" DROP CONSTRAINT "quotes_contact_request_id_key";--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "company" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "siren" text;--> statement-breakpoint
ALTER TABLE "contact_requests" drop column "search_text";--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(name || chr(31) || email || chr(31) || coalesce(phone, '') || chr(31) || message || chr(31) || coalesce(offer_reference, '') || chr(31) || coalesce(company, '') || chr(31) || coalesce(siren, ''))) STORED;--> statement-breakpoint
CREATE INDEX "contact_requests_search_trgm_idx" ON "contact_requests" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "quote_id" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "sent_by_id" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "acceptance" jsonb;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "reminder_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_sent_by_id_users_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_quote_idx" ON "mail_outbox" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "quotes_request_idx" ON "quotes" USING btree ("contact_request_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_open_idx" ON "quotes" USING btree ("valid_until") WHERE "quotes"."sent_at" is not null and "quotes"."accepted_at" is null and "quotes"."declined_at" is null and "quotes"."replaced_at" is null and "quotes"."reminder_queued_at" is null;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_token_hash_key" UNIQUE("token_hash");