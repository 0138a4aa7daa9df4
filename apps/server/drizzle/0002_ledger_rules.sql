-- The ledger's rules, enforced by the database itself (ARCHITECTURE §1, §5).

-- Entries and postings are append-only.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint

-- A posting moves its account's balance, in the same statement: the cached balance is its postings.
CREATE FUNCTION ledger_apply_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.bucket = 'available' THEN
    UPDATE ledger_accounts SET available = available + NEW.amount WHERE id = NEW.account_id;
  ELSE
    UPDATE ledger_accounts SET locked = locked + NEW.amount WHERE id = NEW.account_id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_apply AFTER INSERT ON ledger_postings FOR EACH ROW EXECUTE FUNCTION ledger_apply_posting();
--> statement-breakpoint

-- Nothing else may change a balance, or what an account is.
CREATE FUNCTION ledger_guard_account() RETURNS trigger LANGUAGE plpgsql AS $$
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
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.user_id IS DISTINCT FROM OLD.user_id
     OR NEW.wallet IS DISTINCT FROM OLD.wallet OR NEW.asset IS DISTINCT FROM OLD.asset THEN
    RAISE EXCEPTION 'ledger accounts cannot be re-pointed' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_guard BEFORE INSERT OR UPDATE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_guard_account();
--> statement-breakpoint

-- Every entry balances per asset, checked when the transaction commits.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced text;
BEGIN
  SELECT asset INTO unbalanced FROM ledger_postings WHERE entry_id = NEW.entry_id GROUP BY asset HAVING sum(amount) <> 0 LIMIT 1;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %', NEW.entry_id, unbalanced;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
