-- Group commit (ARCHITECTURE §9) writes many entries in one statement. The ledger's rules
-- stay the same, checked once per statement instead of once per posting row:
--
-- * a posting still moves its account's balance in the same statement (now one UPDATE per
--   account per statement, accounts locked in id order first, so concurrent writers still
--   lock in one global order and cannot deadlock; FOR NO KEY UPDATE, the lock an UPDATE
--   takes, so it does not conflict with the foreign-key checks' KEY SHARE locks);
-- * every entry must still balance per asset, now when the statement that inserted its
--   postings ends rather than at commit. The ledger inserts all of an entry's postings in
--   one statement, so this is stricter, not looser.
CREATE FUNCTION ledger_apply_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM ledger_accounts WHERE id IN (SELECT account_id FROM new_postings) ORDER BY id FOR NO KEY UPDATE;
  UPDATE ledger_accounts a
  SET available = a.available + s.available, locked = a.locked + s.locked
  FROM (
    SELECT account_id,
           coalesce(sum(amount) FILTER (WHERE bucket = 'available'), 0) AS available,
           coalesce(sum(amount) FILTER (WHERE bucket = 'locked'), 0) AS locked
    FROM new_postings GROUP BY account_id
  ) s
  WHERE a.id = s.account_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER ledger_postings_apply ON ledger_postings;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_apply AFTER INSERT ON ledger_postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_apply_postings();
--> statement-breakpoint
DROP FUNCTION ledger_apply_posting();
--> statement-breakpoint
CREATE FUNCTION ledger_check_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced record;
BEGIN
  SELECT p.entry_id, p.asset INTO unbalanced FROM ledger_postings p
  WHERE p.entry_id IN (SELECT DISTINCT entry_id FROM new_postings)
  GROUP BY p.entry_id, p.asset HAVING sum(p.amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %', unbalanced.entry_id, unbalanced.asset;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER ledger_postings_balanced ON ledger_postings;
--> statement-breakpoint
DROP FUNCTION ledger_check_balanced();
--> statement-breakpoint
-- Named to fire after ledger_postings_apply (same-event triggers fire in name order): a
-- negative balance is reported as such first.
CREATE TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_entries_balanced();
