-- Prices are recorded, never authored (ARCHITECTURE §1): a recorded tick can never be
-- changed or removed, by anyone, through any path.
CREATE FUNCTION market_ticks_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'market ticks are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER market_ticks_append_only BEFORE UPDATE OR DELETE ON market_ticks FOR EACH ROW EXECUTE FUNCTION market_ticks_append_only();
--> statement-breakpoint
CREATE TRIGGER market_ticks_no_truncate BEFORE TRUNCATE ON market_ticks FOR EACH STATEMENT EXECUTE FUNCTION market_ticks_append_only();
--> statement-breakpoint
-- An instrument's price scale is part of every tick's meaning: it never changes, and an instrument is never removed.
CREATE FUNCTION market_instruments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.price_scale IS DISTINCT FROM OLD.price_scale OR NEW.symbol IS DISTINCT FROM OLD.symbol THEN
    RAISE EXCEPTION 'market instruments keep their symbol and price scale (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER market_instruments_guard BEFORE UPDATE OR DELETE ON market_instruments FOR EACH ROW EXECUTE FUNCTION market_instruments_guard();
--> statement-breakpoint
CREATE TRIGGER market_instruments_no_truncate BEFORE TRUNCATE ON market_instruments FOR EACH STATEMENT EXECUTE FUNCTION market_ticks_append_only();
