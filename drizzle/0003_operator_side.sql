CREATE TYPE "public"."mail_status" AS ENUM('pending', 'sent', 'failed');--> statement-breakpoint
CREATE TABLE "contact_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contact_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_request_id" integer NOT NULL,
	"author_id" integer,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_request_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_status_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contact_status_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_request_id" integer NOT NULL,
	"from_status" "contact_status" NOT NULL,
	"to_status" "contact_status" NOT NULL,
	"author_id" integer,
	"author_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_request_id" integer,
	"kind" text NOT NULL,
	"status" "mail_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "contact_requests_created_idx";--> statement-breakpoint
DROP INDEX "contact_requests_status_idx";--> statement-breakpoint
DROP INDEX "offers_active_price_idx";--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "suspected_spam" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(name || chr(31) || email || chr(31) || coalesce(phone, '') || chr(31) || message || chr(31) || coalesce(offer_reference, ''))) STORED;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "cpu_cores" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "ram_gb" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "storage_tb" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "bandwidth_gbps" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "setup_fee" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "loa_months" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "loa_purchase_option" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "contact_notes" ADD CONSTRAINT "contact_notes_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_notes" ADD CONSTRAINT "contact_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_status_changes" ADD CONSTRAINT "contact_status_changes_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_status_changes" ADD CONSTRAINT "contact_status_changes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_notes_request_idx" ON "contact_notes" USING btree ("contact_request_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_status_changes_request_idx" ON "contact_status_changes" USING btree ("contact_request_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_outbox_request_idx" ON "mail_outbox" USING btree ("contact_request_id");--> statement-breakpoint
CREATE INDEX "contact_requests_list_idx" ON "contact_requests" USING btree ("suspected_spam","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contact_requests_status_list_idx" ON "contact_requests" USING btree ("suspected_spam","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contact_requests_search_trgm_idx" ON "contact_requests" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_requests_email_lower_idx" ON "contact_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "contact_requests_updated_idx" ON "contact_requests" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "offers_active_price_id_idx" ON "offers" USING btree ("is_active","price","id");--> statement-breakpoint
CREATE INDEX "offers_featured_idx" ON "offers" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "offers"."featured" and "offers"."is_active";--> statement-breakpoint
CREATE INDEX "offers_slug_trgm_idx" ON "offers" USING gin ("slug" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_numbers_nonnegative" CHECK (coalesce("offers"."cpu_cores", 0) >= 0 and coalesce("offers"."ram_gb", 0) >= 0 and coalesce("offers"."storage_tb", 0) >= 0 and coalesce("offers"."bandwidth_gbps", 0) >= 0 and coalesce("offers"."setup_fee", 0) >= 0 and coalesce("offers"."loa_months", 0) >= 0 and coalesce("offers"."loa_purchase_option", 0) >= 0);--> statement-breakpoint
-- Exact per-status counts of contact requests, kept by triggers (schema.server.ts, contactRequestCounts).
CREATE FUNCTION contact_request_count_key(spam boolean, st contact_status) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN spam THEN 'spam' ELSE 'status:' || st::text END $$;--> statement-breakpoint
CREATE FUNCTION contact_request_counts_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text;
  new_key text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_key := contact_request_count_key(OLD.suspected_spam, OLD.status);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    new_key := contact_request_count_key(NEW.suspected_spam, NEW.status);
  END IF;
  IF old_key IS NOT DISTINCT FROM new_key THEN
    RETURN NULL;
  END IF;
  -- One statement, keys in a fixed order: two transactions never lock two counters in opposite orders.
  INSERT INTO contact_request_counts AS c (key, count)
    SELECT k, d FROM (VALUES (old_key, -1), (new_key, 1)) AS v(k, d) WHERE k IS NOT NULL ORDER BY k
  ON CONFLICT (key) DO UPDATE SET count = c.count + EXCLUDED.count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION contact_request_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_request_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION refresh_contact_request_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM contact_request_counts;
  INSERT INTO contact_request_counts (key, count)
    SELECT contact_request_count_key(suspected_spam, status), count(*)::int FROM contact_requests GROUP BY 1;
$$;--> statement-breakpoint
CREATE TRIGGER contact_request_counts_sync AFTER INSERT OR DELETE OR UPDATE OF status, suspected_spam ON contact_requests
  FOR EACH ROW EXECUTE FUNCTION contact_request_counts_row();--> statement-breakpoint
CREATE TRIGGER contact_request_counts_reset AFTER TRUNCATE ON contact_requests
  FOR EACH STATEMENT EXECUTE FUNCTION contact_request_counts_truncate();--> statement-breakpoint
SELECT refresh_contact_request_counts();
