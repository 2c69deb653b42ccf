CREATE TYPE "public"."lease_document_status" AS ENUM('received', 'refused');--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'file_incomplete';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'file_complete';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'file_sent';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'financer_approved';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'financer_refused';--> statement-breakpoint
ALTER TYPE "public"."contact_status" ADD VALUE 'delivered';--> statement-breakpoint
ALTER TYPE "public"."signed_document_kind" ADD VALUE 'delivery_report';--> statement-breakpoint
CREATE TABLE "lease_document_kinds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lease_document_kinds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"purpose" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lease_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_request_id" integer NOT NULL,
	"kind_id" integer,
	"kind_title" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"status" "lease_document_status" DEFAULT 'received' NOT NULL,
	"refusal_reason" text,
	"reviewed_by_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lease_documents_sha256_hex" CHECK ("lease_documents"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "lease_files" (
	"contact_request_id" integer PRIMARY KEY NOT NULL,
	"quote_id" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"complete_at" timestamp with time zone,
	"missing_reminded_on" date,
	"financer_sent_at" timestamp with time zone,
	"financer_sent_by_id" integer,
	"financer_sent_to" text,
	"financer_answer" text,
	"financer_answered_on" date,
	"financer_reference" text,
	"financer_recorded_by_id" integer,
	"delivered_items" jsonb,
	"delivery_entered_at" timestamp with time zone,
	"delivery_signed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lease_documents" ADD CONSTRAINT "lease_documents_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_documents" ADD CONSTRAINT "lease_documents_kind_id_lease_document_kinds_id_fk" FOREIGN KEY ("kind_id") REFERENCES "public"."lease_document_kinds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_documents" ADD CONSTRAINT "lease_documents_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_files" ADD CONSTRAINT "lease_files_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_files" ADD CONSTRAINT "lease_files_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_files" ADD CONSTRAINT "lease_files_financer_sent_by_id_users_id_fk" FOREIGN KEY ("financer_sent_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_files" ADD CONSTRAINT "lease_files_financer_recorded_by_id_users_id_fk" FOREIGN KEY ("financer_recorded_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lease_document_kinds_title_key" ON "lease_document_kinds" USING btree (lower("title"));--> statement-breakpoint
CREATE INDEX "lease_documents_request_idx" ON "lease_documents" USING btree ("contact_request_id","kind_id","created_at");--> statement-breakpoint
-- What financers ask for an LOA (issue 41), editable in `Barème LOA`.
INSERT INTO "lease_document_kinds" ("title", "purpose", "position") VALUES
  ('Extrait Kbis de moins de trois mois', 'Prouve l''existence de la société et désigne ses dirigeants.', 1),
  ('Pièce d''identité du dirigeant', 'Identifie la personne qui engage la société (recto et verso).', 2),
  ('RIB de la société', 'Sert au prélèvement des loyers.', 3),
  ('Dernière liasse fiscale ou dernier bilan', 'Permet au financeur d''apprécier la capacité de la société à payer les loyers.', 4);
