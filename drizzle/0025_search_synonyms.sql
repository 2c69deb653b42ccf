CREATE TABLE "search_synonyms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "search_synonyms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"phrases" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_synonyms_two_phrases" CHECK (cardinality("search_synonyms"."phrases") >= 2)
);--> statement-breakpoint
-- Synonyms and aliases buyers type (issue 42), editable in `Recherche` of the administration.
INSERT INTO "search_synonyms" ("phrases") VALUES
  (ARRAY['epic', 'EPYC']),
  (ARRAY['dédié', 'dedicated']),
  (ARRAY['serveur dédié', 'dedicated server', 'bare metal']),
  (ARRAY['go', 'Go', 'GB', 'gigaoctet']),
  (ARRAY['to', 'To', 'TB', 'téraoctet']),
  (ARRAY['nvme', 'NVMe SSD']),
  (ARRAY['hdd', 'disque dur']),
  (ARRAY['graphique', 'GPU', 'carte graphique']),
  (ARRAY['cœur', 'core']),
  (ARRAY['processeur', 'CPU']),
  (ARRAY['mémoire', 'RAM']),
  (ARRAY['stockage', 'storage', 'disque']),
  (ARRAY['bande passante', 'bandwidth', 'débit']),
  (ARRAY['gbps', 'Gbit/s', 'Gb/s']),
  (ARRAY['location avec option d''achat', 'LOA', 'leasing', 'crédit-bail']),
  (ARRAY['IA', 'intelligence artificielle', 'AI']);
