-- Group commit (ARCHITECTURE §9) writes many entries in one statement. The ledger's rules
-- stay the same, checked once per statement instead of once per posting row:
--
-- * a posting still moves its account's balance in the same statement: one UPDATE per
--   account per statement, in account-id order, so concurrent writers lock accounts in one
--   global order and cannot deadlock;
-- * every entry must still balance per asset, now when the statement that inserts its
--   postings ends rather than at commit: the postings one statement inserts must balance
--   per entry and asset. The ledger writes all of an entry's postings in one statement, so
--   this is stricter, not looser (a later statement cannot complete an unbalanced entry).
CREATE FUNCTION ledger_apply_postings() RETURNS trigger LANGUAGE plpgsql AS $$
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
  END LOOP;
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
  SELECT entry_id, asset INTO unbalanced FROM new_postings GROUP BY entry_id, asset HAVING sum(amount) <> 0 LIMIT 1;
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
-- Named to fire after ledger_postings_apply (triggers on one event fire in name order): a
-- negative balance is reported as such first.
CREATE TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_entries_balanced();
