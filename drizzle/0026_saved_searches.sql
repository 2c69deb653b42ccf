CREATE TABLE "saved_search_links" (
	"token_hash" text NOT NULL,
	"search_id" integer NOT NULL,
	CONSTRAINT "saved_search_links_token_hash_search_id_pk" PRIMARY KEY("token_hash","search_id")
);
--> statement-breakpoint
CREATE TABLE "saved_search_offers" (
	"search_id" integer NOT NULL,
	"offer_id" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "saved_search_offers_search_id_offer_id_pk" PRIMARY KEY("search_id","offer_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_searches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"query" text NOT NULL,
	"token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_match_at" timestamp with time zone,
	"last_mailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "saved_search_id" integer;--> statement-breakpoint
ALTER TABLE "saved_search_links" ADD CONSTRAINT "saved_search_links_search_id_saved_searches_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_offers" ADD CONSTRAINT "saved_search_offers_search_id_saved_searches_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_offers" ADD CONSTRAINT "saved_search_offers_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_search_links_search_idx" ON "saved_search_links" USING btree ("search_id");--> statement-breakpoint
CREATE INDEX "saved_search_offers_pending_idx" ON "saved_search_offers" USING btree ("search_id") WHERE "saved_search_offers"."notified_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_email_query_unique" ON "saved_searches" USING btree (lower("email"),"query");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_token_hash_unique" ON "saved_searches" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "saved_searches_confirmed_idx" ON "saved_searches" USING btree ("query") WHERE "saved_searches"."confirmed_at" is not null;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_saved_search_idx" ON "mail_outbox" USING btree ("saved_search_id");