CREATE TYPE "public"."signed_document_kind" AS ENUM('quote');--> statement-breakpoint
CREATE TABLE "signed_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signed_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" "signed_document_kind" NOT NULL,
	"reference" text NOT NULL,
	"source_id" integer,
	"contact_request_id" integer,
	"signed_at" timestamp with time zone NOT NULL,
	"file_name" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_sha256" text NOT NULL,
	"seller" jsonb NOT NULL,
	"terms" jsonb NOT NULL,
	"party" jsonb NOT NULL,
	"party_email" text NOT NULL,
	"acceptance" jsonb NOT NULL,
	CONSTRAINT "signed_documents_sha256_hex" CHECK ("signed_documents"."pdf_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "signed_documents_party_email_lower" CHECK ("signed_documents"."party_email" = lower("signed_documents"."party_email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signed_documents_kind_reference_key" ON "signed_documents" USING btree ("kind","reference");--> statement-breakpoint
CREATE INDEX "signed_documents_source_idx" ON "signed_documents" USING btree ("kind","source_id");--> statement-breakpoint
CREATE INDEX "signed_documents_party_email_idx" ON "signed_documents" USING btree ("party_email");--> statement-breakpoint
CREATE INDEX "signed_documents_signed_at_idx" ON "signed_documents" USING btree ("signed_at");