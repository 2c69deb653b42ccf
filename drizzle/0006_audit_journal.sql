CREATE TABLE "audit_journal" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_journal_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_email" text,
	"action" text NOT NULL,
	"target" text,
	"ip" text,
	"request_id" text
);
--> statement-breakpoint
CREATE INDEX "audit_journal_at_idx" ON "audit_journal" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_journal_actor_idx" ON "audit_journal" USING btree ("actor_email","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_journal_action_idx" ON "audit_journal" USING btree ("action","at" DESC NULLS LAST);