-- Instant contracts: outcomes are computed, never chosen (ARCHITECTURE §1, §6). The
-- database refuses any other path: an order is never deleted; its terms never change; it
-- opens on the recorded tick it names; it settles once, on the latest recorded tick at or
-- before delivery (within 5 s), or as a void when there is none.
CREATE FUNCTION contract_orders_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tick record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'contract orders are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.state <> 'open' THEN
      RAISE EXCEPTION 'a contract order is placed open' USING ERRCODE = 'restrict_violation';
    END IF;
    SELECT instrument, price_minor, ts INTO tick FROM market_ticks WHERE id = NEW.open_tick_id;
    IF tick.instrument IS DISTINCT FROM NEW.instrument OR tick.price_minor IS DISTINCT FROM NEW.open_price_minor
       OR tick.ts > NEW.created_at OR tick.ts < NEW.created_at - interval '5 seconds' THEN
      RAISE EXCEPTION 'order % does not open on a fresh recorded tick of its instrument', NEW.public_id USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
  END IF;
  IF OLD.state = 'settled' THEN
    RAISE EXCEPTION 'contract order % is settled: it never changes again', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.public_id IS DISTINCT FROM OLD.public_id OR NEW.user_id IS DISTINCT FROM OLD.user_id
     OR NEW.instrument IS DISTINCT FROM OLD.instrument OR NEW.direction IS DISTINCT FROM OLD.direction
     OR NEW.period_seconds IS DISTINCT FROM OLD.period_seconds OR NEW.payout_rate_ppm IS DISTINCT FROM OLD.payout_rate_ppm
     OR NEW.fee_rate_ppm IS DISTINCT FROM OLD.fee_rate_ppm OR NEW.stake_minor IS DISTINCT FROM OLD.stake_minor
     OR NEW.fee_minor IS DISTINCT FROM OLD.fee_minor OR NEW.open_tick_id IS DISTINCT FROM OLD.open_tick_id
     OR NEW.open_price_minor IS DISTINCT FROM OLD.open_price_minor OR NEW.created_at IS DISTINCT FROM OLD.created_at
     OR NEW.deliver_at IS DISTINCT FROM OLD.deliver_at THEN
    RAISE EXCEPTION 'the terms of contract order % never change', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.state = 'settled' THEN
    SELECT id, price_minor INTO tick FROM market_ticks
      WHERE instrument = NEW.instrument AND ts <= NEW.deliver_at AND ts >= NEW.deliver_at - interval '5 seconds'
      ORDER BY ts DESC LIMIT 1;
    IF NEW.close_tick_id IS DISTINCT FROM tick.id OR NEW.close_price_minor IS DISTINCT FROM tick.price_minor THEN
      RAISE EXCEPTION 'contract order % must settle on the latest recorded tick at or before its delivery', OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER contract_orders_guard BEFORE INSERT OR UPDATE OR DELETE ON contract_orders FOR EACH ROW EXECUTE FUNCTION contract_orders_guard();
--> statement-breakpoint
CREATE FUNCTION contract_orders_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'contract orders are never deleted' USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER contract_orders_no_truncate BEFORE TRUNCATE ON contract_orders FOR EACH STATEMENT EXECUTE FUNCTION contract_orders_no_truncate();
--> statement-breakpoint
-- The default periods (spec §4): 30 s, 60 s, 120 s, 300 s; fee 0.2 %; stake 10 to 10,000 USDT.
INSERT INTO contract_periods (seconds, payout_rate_ppm, fee_rate_ppm, min_stake_minor, max_stake_minor, active, sort_order) VALUES
  (30, 800000, 2000, 10000000, 10000000000, true, 1),
  (60, 850000, 2000, 10000000, 10000000000, true, 2),
  (120, 880000, 2000, 10000000, 10000000000, true, 3),
  (300, 920000, 2000, 10000000, 10000000000, true, 4);
