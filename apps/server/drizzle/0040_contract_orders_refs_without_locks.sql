-- contract_orders' foreign keys to users (user_id) and market_ticks (open_tick_id) checked
-- each new order with SELECT … FOR KEY SHARE on the referenced row. That lock writes to the
-- row (and to the WAL) for every order, and the orders of two concurrent batches on one
-- instrument share-lock the same latest tick, which makes a MultiXact. On bench/orders,
-- dropping them gave 1–4 % more orders and a p99 4–6 ms lower in three alternating pairs.
-- The same rules now hold without the locks, as for the ledger's postings (0018, 0019):
--
-- * an order names a user that exists, and an open tick that exists, is of its instrument,
--   at its price and fresh (the guard below; the tick part is 0012's);
-- * a tick that an order opened on is never deleted (market_ticks_keep_order_ticks, below):
--   the retention prune already leaves such ticks alone (registerTickReference), this is the
--   database's own refusal. Without the lock, only a prune racing an order that opens on that
--   very tick could slip past it, and the prune takes ticks older than a day by the database's
--   clock (0010) while an order opens on a tick at most 5 s older than itself;
-- * users are never deleted by the application; a user with an order also has a ledger
--   account, whose foreign key and no-delete rule (0002) keep the user.
--
-- The close tick keeps its foreign key: it is written at settlement, not on the placing path.
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_open_tick_id_market_ticks_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contract_orders_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF NOT EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id) THEN
      RAISE EXCEPTION 'contract order % for user % that does not exist', NEW.public_id, NEW.user_id USING ERRCODE = 'foreign_key_violation';
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
-- One check per deleting statement (a prune deletes 5,000 ticks at a time): the ticks it
-- deleted that an order opened on. contract_orders has no index on open_tick_id, so this is
-- one scan of the orders per statement, where the foreign key made one per deleted tick.
CREATE FUNCTION market_ticks_keep_order_ticks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kept bigint;
BEGIN
  SELECT t.id INTO kept FROM old_ticks t WHERE EXISTS (SELECT 1 FROM contract_orders o WHERE o.open_tick_id = t.id) ORDER BY t.id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'market tick % is the open tick of a contract order: it is kept', kept USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER market_ticks_keep_order_ticks AFTER DELETE ON market_ticks REFERENCING OLD TABLE AS old_ticks FOR EACH STATEMENT EXECUTE FUNCTION market_ticks_keep_order_ticks();
