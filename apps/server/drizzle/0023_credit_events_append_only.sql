-- A credit score is recomputed from its events, never edited: an event, once written, is
-- never changed or removed, by anyone, through any path.
CREATE FUNCTION credit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit events are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER credit_events_append_only BEFORE UPDATE OR DELETE ON credit_events FOR EACH ROW EXECUTE FUNCTION credit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER credit_events_no_truncate BEFORE TRUNCATE ON credit_events FOR EACH STATEMENT EXECUTE FUNCTION credit_events_append_only();
--> statement-breakpoint
-- Users verified before credit events existed get their KYC event now, from their approved
-- submission, with the rule's points (20) and the decision's time.
INSERT INTO credit_events (user_id, kind, points, ref, created_at)
SELECT DISTINCT ON (s.user_id) s.user_id, 'kyc_approved', 20, 'kyc_submission:' || s.id, coalesce(s.decided_at, now())
FROM kyc_submissions s JOIN users u ON u.id = s.user_id
WHERE s.status = 'approved' AND u.verified
ORDER BY s.user_id, s.id;
