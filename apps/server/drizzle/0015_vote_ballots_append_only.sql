-- A ballot, once cast, is the vote: nobody (operators included) changes or removes it,
-- so a poll's counts can only move by a new ballot.
CREATE FUNCTION vote_ballots_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vote ballots are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER vote_ballots_append_only BEFORE UPDATE OR DELETE ON vote_ballots FOR EACH ROW EXECUTE FUNCTION vote_ballots_append_only();
--> statement-breakpoint
CREATE TRIGGER vote_ballots_no_truncate BEFORE TRUNCATE ON vote_ballots FOR EACH STATEMENT EXECUTE FUNCTION vote_ballots_append_only();
