-- A redemption is the user's n-th use of a code, and n may not pass the code's per-user
-- limit: with the unique key (code_id, user_id, n) this holds however many requests race.
CREATE FUNCTION bonus_redemptions_within_limit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  code_limit integer;
BEGIN
  SELECT per_user_limit INTO code_limit FROM bonus_codes WHERE id = NEW.code_id;
  IF code_limit IS NULL OR NEW.n > code_limit THEN
    RAISE EXCEPTION 'bonus redemption % of code % passes its per-user limit %', NEW.n, NEW.code_id, code_limit USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER bonus_redemptions_within_limit BEFORE INSERT ON bonus_redemptions FOR EACH ROW EXECUTE FUNCTION bonus_redemptions_within_limit();
--> statement-breakpoint
-- Redemptions are the record of rewards paid: never changed or removed.
CREATE FUNCTION bonus_redemptions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'bonus redemptions are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER bonus_redemptions_append_only BEFORE UPDATE OR DELETE ON bonus_redemptions FOR EACH ROW EXECUTE FUNCTION bonus_redemptions_append_only();
--> statement-breakpoint
CREATE TRIGGER bonus_redemptions_no_truncate BEFORE TRUNCATE ON bonus_redemptions FOR EACH STATEMENT EXECUTE FUNCTION bonus_redemptions_append_only();
--> statement-breakpoint
-- A code's terms are fixed once created (users redeemed it on those terms); only the
-- counter moves, and only up by one at a time. Nothing deletes a code.
CREATE FUNCTION bonus_codes_terms_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'bonus codes are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.code, NEW.asset, NEW.amount_minor, NEW.max_redemptions, NEW.per_user_limit, NEW.verified_only, NEW.starts_at, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM (OLD.code, OLD.asset, OLD.amount_minor, OLD.max_redemptions, OLD.per_user_limit, OLD.verified_only, OLD.starts_at, OLD.created_by, OLD.created_at)
     OR NEW.redeemed_count NOT IN (OLD.redeemed_count, OLD.redeemed_count + 1) THEN
    RAISE EXCEPTION 'bonus code % terms are fixed; only expires_at may move and the count may only rise by one', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER bonus_codes_terms_fixed BEFORE UPDATE OR DELETE ON bonus_codes FOR EACH ROW EXECUTE FUNCTION bonus_codes_terms_fixed();
