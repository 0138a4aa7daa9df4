-- Ticks stay append-only (ARCHITECTURE §1): no UPDATE ever. The one DELETE allowed is the
-- recorder's retention prune, which marks its transaction with
-- `SET LOCAL tradewind.tick_prune = 'on'`, and even then only for ticks older than a day
-- by the database's own clock. Ticks that orders or quotes reference are protected by
-- their foreign keys as well.
CREATE FUNCTION market_ticks_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('tradewind.tick_prune', true), '') = 'on' AND OLD.ts < now() - interval '1 day' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'market ticks are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
DROP TRIGGER market_ticks_append_only ON market_ticks;
--> statement-breakpoint
CREATE TRIGGER market_ticks_guard BEFORE UPDATE OR DELETE ON market_ticks FOR EACH ROW EXECUTE FUNCTION market_ticks_guard();
--> statement-breakpoint
-- Only the recorder writes ticks and candles: its transaction says so with
-- `SET LOCAL tradewind.recorder = 'on'`. This guards against a stray code path, not
-- against someone with SQL access, who could set it too.
CREATE FUNCTION market_recorder_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('tradewind.recorder', true), '') <> 'on' THEN
    RAISE EXCEPTION 'only the market recorder writes % (%)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER market_ticks_recorder_only BEFORE INSERT ON market_ticks FOR EACH ROW EXECUTE FUNCTION market_recorder_only();
--> statement-breakpoint
-- A candle only grows as ticks arrive: same minute, more ticks, a wider range, more
-- volume; it is never deleted (candles outlive the raw ticks).
CREATE FUNCTION market_candles_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND coalesce(current_setting('tradewind.recorder', true), '') = 'on' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('tradewind.recorder', true), '') = 'on'
    AND NEW.instrument = OLD.instrument AND NEW.open_time = OLD.open_time
    AND NEW.tick_count > OLD.tick_count AND NEW.volume_minor >= OLD.volume_minor
    AND NEW.high_minor >= OLD.high_minor AND NEW.low_minor <= OLD.low_minor
    AND NEW.first_ts <= OLD.first_ts AND NEW.last_ts >= OLD.last_ts THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'market candles are built only by the recorder (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER market_candles_guard BEFORE INSERT OR UPDATE OR DELETE ON market_candles_1m FOR EACH ROW EXECUTE FUNCTION market_candles_guard();
--> statement-breakpoint
CREATE TRIGGER market_candles_no_truncate BEFORE TRUNCATE ON market_candles_1m FOR EACH STATEMENT EXECUTE FUNCTION market_ticks_append_only();
