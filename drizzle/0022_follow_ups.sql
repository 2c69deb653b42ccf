CREATE TABLE "reply_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reply_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_message_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_message_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_id" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "next_action_on" date;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "first_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "late_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "request_messages" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "digest_sent_on" date;--> statement-breakpoint
ALTER TABLE "request_message_attachments" ADD CONSTRAINT "request_message_attachments_message_id_request_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."request_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reply_templates_title_key" ON "reply_templates" USING btree (lower("title"));--> statement-breakpoint
CREATE INDEX "request_message_attachments_message_idx" ON "request_message_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "contact_requests_next_action_idx" ON "contact_requests" USING btree ("owner_id","next_action_on") WHERE "contact_requests"."next_action_on" is not null;--> statement-breakpoint
CREATE INDEX "contact_requests_unanswered_idx" ON "contact_requests" USING btree ("first_response_due_at") WHERE "contact_requests"."first_answered_at" is null and "contact_requests"."first_response_due_at" is not null;