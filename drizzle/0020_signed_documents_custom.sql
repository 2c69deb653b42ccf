-- What a person signs (issue 40) is written once: a row of signed_documents is never updated, and
-- deleted only by its retention, purge_signed_documents(), which says so for its own statement
-- with set_config('app.signed_retention', 'on', true). TRUNCATE (a restore, the owner's tool) is
-- not a row change and stays possible. With two roles on PostgreSQL (MIGRATION_DATABASE_URL) the
-- server's role holds only INSERT and SELECT on the table (granted at each start:
-- app/platform/db-roles.server.ts) and EXECUTE on the purge, which runs as the tables' owner and
-- reads the years from signed_documents_retention_years(), a function the migrator writes again at
-- each start from SIGNED_QUOTE_RETENTION_YEARS: the server's role can shorten neither.
CREATE FUNCTION signed_documents_write_once() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.signed_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'signed_documents is write-once (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signed_documents_write_once
  BEFORE UPDATE OR DELETE ON signed_documents
  FOR EACH ROW EXECUTE FUNCTION signed_documents_write_once();
--> statement-breakpoint
CREATE FUNCTION signed_documents_retention_years() RETURNS integer
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$ SELECT 10 $$;
--> statement-breakpoint
CREATE FUNCTION purge_signed_documents() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  -- Never less than the legal period of commercial documents, whatever the function says.
  kept integer := greatest(public.signed_documents_retention_years(), 10);
  previous text := coalesce(current_setting('app.signed_retention', true), '');
  deleted integer;
BEGIN
  PERFORM set_config('app.signed_retention', 'on', true);
  DELETE FROM public.signed_documents WHERE signed_at < now() - make_interval(years => kept);
  GET DIAGNOSTICS deleted = ROW_COUNT;
  PERFORM set_config('app.signed_retention', previous, true);
  RETURN deleted;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_signed_documents() FROM PUBLIC;
