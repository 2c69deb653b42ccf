ALTER TABLE "contact_requests" ADD COLUMN "submission_token" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "retried_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_submission_token_key" UNIQUE("submission_token");