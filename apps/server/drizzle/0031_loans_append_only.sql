-- An accrued overdue day is history: nobody (operators included) changes or removes it, so
-- a loan's overdue interest can only grow by a new day, and each day exists once (the primary key).
CREATE FUNCTION loan_overdue_days_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'loan overdue days are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER loan_overdue_days_append_only BEFORE UPDATE OR DELETE ON loan_overdue_days FOR EACH ROW EXECUTE FUNCTION loan_overdue_days_append_only();
--> statement-breakpoint
CREATE TRIGGER loan_overdue_days_no_truncate BEFORE TRUNCATE ON loan_overdue_days FOR EACH STATEMENT EXECUTE FUNCTION loan_overdue_days_append_only();
