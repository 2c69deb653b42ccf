CREATE TABLE "quotes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "quotes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_request_id" integer NOT NULL,
	"number" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content" jsonb NOT NULL,
	CONSTRAINT "quotes_contact_request_id_key" UNIQUE("contact_request_id"),
	CONSTRAINT "quotes_number_key" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;