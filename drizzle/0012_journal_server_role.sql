-- The journal's retention, the one way its rows are deleted (issue 28). With two roles on
-- PostgreSQL (MIGRATION_DATABASE_URL), the server's role holds only INSERT and SELECT on
-- audit_journal (granted at each start: app/server/db-roles.server.ts) and calls
-- purge_audit_journal(), which runs as the tables' owner. It deletes only the rows older than the
-- months asked, and never younger than audit_journal_retention_floor(), a function the migrator
-- writes again at each start from AUDIT_RETENTION_MONTHS: only the owner can replace either, so
-- the server's role cannot pass 0 to empty the journal. Search paths are pinned; the append-only
-- trigger lets the delete through because the function sets app.audit_retention for it alone.
CREATE FUNCTION audit_journal_retention_floor() RETURNS integer
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$ SELECT 12 $$;
--> statement-breakpoint
CREATE FUNCTION purge_audit_journal(months integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  floor_months integer := greatest(public.audit_journal_retention_floor(), 1);
  kept integer := greatest(coalesce(months, floor_months), floor_months);
  previous text := coalesce(current_setting('app.audit_retention', true), '');
  deleted integer;
BEGIN
  PERFORM set_config('app.audit_retention', 'on', true);
  DELETE FROM public.audit_journal WHERE at < now() - make_interval(months => kept);
  GET DIAGNOSTICS deleted = ROW_COUNT;
  PERFORM set_config('app.audit_retention', previous, true);
  RETURN deleted;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_audit_journal(integer) FROM PUBLIC;
