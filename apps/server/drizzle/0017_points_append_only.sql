-- Points are kept like money though they are not money: an event, once written, is never
-- changed or removed, by anyone, through any path. The balance is the sum of the events.
CREATE FUNCTION points_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'points events are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER points_events_append_only BEFORE UPDATE OR DELETE ON points_events FOR EACH ROW EXECUTE FUNCTION points_events_append_only();
--> statement-breakpoint
CREATE TRIGGER points_events_no_truncate BEFORE TRUNCATE ON points_events FOR EACH STATEMENT EXECUTE FUNCTION points_events_append_only();
