-- Idempotency keys expire a day after they were stored (platform/idempotency.ts), and the
-- prune worker deletes the expired ones by this index.
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");
--> statement-breakpoint
-- A batch of orders inserts its keys with ON CONFLICT DO UPDATE ... WHERE this: an expired row
-- (stored at or before the cutoff the caller passes) is taken over by the new request. A row
-- still live belongs to a concurrent duplicate that committed first: the insert fails as a
-- plain insert would, with a unique violation of the primary key, which the caller handles
-- (it rolls back, retries, and the request replays that duplicate's reply).
CREATE FUNCTION idempotency_key_expired(stored_at timestamptz, cutoff timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF stored_at <= cutoff THEN
    RETURN true;
  END IF;
  RAISE EXCEPTION 'duplicate key value violates unique constraint "idempotency_keys_user_id_key_pk"'
    USING ERRCODE = 'unique_violation', CONSTRAINT = 'idempotency_keys_user_id_key_pk', TABLE = 'idempotency_keys';
END
$$;
