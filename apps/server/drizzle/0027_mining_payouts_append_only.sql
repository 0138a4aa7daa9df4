-- A paid day is history: nobody (operators included) changes or removes it, so what a
-- rental has paid can only grow by a new day, and each day exists once (the primary key).
CREATE FUNCTION mining_payouts_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'mining payouts are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER mining_payouts_append_only BEFORE UPDATE OR DELETE ON mining_payouts FOR EACH ROW EXECUTE FUNCTION mining_payouts_append_only();
--> statement-breakpoint
CREATE TRIGGER mining_payouts_no_truncate BEFORE TRUNCATE ON mining_payouts FOR EACH STATEMENT EXECUTE FUNCTION mining_payouts_append_only();
