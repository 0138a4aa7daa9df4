-- The foreign keys from ledger_postings to ledger_entries and ledger_accounts (dropped in
-- 0018) checked and key-share-locked the referenced row once per posting: most of the cost
-- of writing a batch of postings. The same rule is now checked once per statement, by the
-- statement-level triggers that already read the inserted postings:
--
-- * ledger_postings_apply updates each posted account; an account that does not exist
--   matches no row, and the statement fails;
-- * ledger_postings_balanced checks that every posted entry exists (visible to the
--   inserting transaction, as a foreign key requires).
--
-- No lock on the referenced rows is needed: entries can be neither updated nor deleted
-- (0002), accounts cannot be deleted, and from here on their ids cannot change either.
CREATE OR REPLACE FUNCTION ledger_apply_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved record;
BEGIN
  FOR moved IN
    SELECT account_id,
           coalesce(sum(amount) FILTER (WHERE bucket = 'available'), 0) AS available,
           coalesce(sum(amount) FILTER (WHERE bucket = 'locked'), 0) AS locked
    FROM new_postings GROUP BY account_id ORDER BY account_id
  LOOP
    UPDATE ledger_accounts SET available = available + moved.available, locked = locked + moved.locked WHERE id = moved.account_id;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ledger posting to account % that does not exist', moved.account_id USING ERRCODE = 'foreign_key_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_check_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced record;
  missing bigint;
BEGIN
  SELECT p.entry_id INTO missing
  FROM (SELECT DISTINCT entry_id FROM new_postings) p
  WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = p.entry_id)
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger posting to entry % that does not exist', missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  SELECT entry_id, asset INTO unbalanced FROM new_postings GROUP BY entry_id, asset HAVING sum(amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %', unbalanced.entry_id, unbalanced.asset;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_guard_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.available <> 0 OR NEW.locked <> 0 THEN
      RAISE EXCEPTION 'accounts open at zero; balances change only through ledger postings' USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
  END IF;
  IF (NEW.available IS DISTINCT FROM OLD.available OR NEW.locked IS DISTINCT FROM OLD.locked) AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'balances change only through ledger postings' USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.name IS DISTINCT FROM OLD.name OR NEW.kind IS DISTINCT FROM OLD.kind
     OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.wallet IS DISTINCT FROM OLD.wallet OR NEW.asset IS DISTINCT FROM OLD.asset THEN
    RAISE EXCEPTION 'ledger accounts cannot be re-pointed' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
