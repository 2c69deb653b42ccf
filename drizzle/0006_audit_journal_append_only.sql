-- The admin journal is append-only (issue 20): rows are never updated, and deleted only by the
-- retention purge, which says so for its own transaction with
-- set_config('app.audit_retention', 'on', true). TRUNCATE (a restore, the owner's tool) is not a
-- row change and stays possible.
CREATE FUNCTION audit_journal_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_journal is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_journal_append_only
  BEFORE UPDATE OR DELETE ON audit_journal
  FOR EACH ROW EXECUTE FUNCTION audit_journal_append_only();
