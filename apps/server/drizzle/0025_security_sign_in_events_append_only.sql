-- The sign-in history is what happened: nobody (operators included) edits or removes a row.
CREATE FUNCTION sign_in_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'sign-in events are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER sign_in_events_append_only BEFORE UPDATE OR DELETE ON sign_in_events FOR EACH ROW EXECUTE FUNCTION sign_in_events_append_only();
--> statement-breakpoint
CREATE TRIGGER sign_in_events_no_truncate BEFORE TRUNCATE ON sign_in_events FOR EACH STATEMENT EXECUTE FUNCTION sign_in_events_append_only();
