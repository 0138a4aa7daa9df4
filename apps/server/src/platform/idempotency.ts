import crypto from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import { type Db, type Tx, queryRows } from './db.ts';
import { AppError } from './errors.ts';
import { idempotencyKeys } from './tables.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * A key holds its request for a day, as Stripe's keys do: long enough for any client's
 * retries, and after that a request with the key is a new request. So the table holds about
 * a day of money-moving requests; `pruneExpiredKeys` deletes the rest.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;

/** Keys stored at or before this instant have expired at `now`. */
export function keyExpiryCutoff(now: Date): Date {
  return new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
}

export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && KEY_PATTERN.test(value);
}

export function requestHash(method: string, url: string, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([method, url.split('?')[0], body ?? null]))
    .digest('hex');
}

/**
 * Runs a money-moving request exactly once per (user, key) while the key lives
 * (IDEMPOTENCY_KEY_TTL_MS). The key row is written first in the same transaction as the
 * work: a concurrent duplicate waits on it, then replays the stored reply; a failed attempt
 * rolls back its key with everything else, so a retry runs again. The same key with another
 * body is refused (IDEMPOTENCY_KEY_REUSED) and changes nothing. An expired key is absent:
 * the request runs anew and its row takes the old one's place.
 */
export async function runIdempotent<T>(
  deps: { db: Db; clock: Clock },
  input: { userId: number; key: string; hash: string },
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // An expired row is overwritten in place, and locked as a fresh insert would be: a
    // concurrent duplicate waits for this transaction, then finds a live key and replays it.
    // A live key is left as it is (locked until this transaction ends, which is soon).
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ userId: input.userId, key: input.key, requestHash: input.hash, createdAt: now })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { requestHash: input.hash, response: null, createdAt: now },
        setWhere: lte(idempotencyKeys.createdAt, keyExpiryCutoff(now)),
      })
      .returning({ key: idempotencyKeys.key });
    const where = and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key));
    if (inserted.length === 0) {
      const [stored] = await tx.select().from(idempotencyKeys).where(where).limit(1);
      if (!stored || stored.requestHash !== input.hash)
        throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 409);
      return JSON.parse(stored.response ?? 'null') as T;
    }
    const result = await work(tx as Tx);
    await tx
      .update(idempotencyKeys)
      .set({ response: JSON.stringify(result) })
      .where(where);
    return result;
  });
}

/**
 * The same promise as `runIdempotent`, for requests grouped into one transaction (group
 * commit). Inside the batch's transaction, the batch reads the keys' rows and
 * `storedKeysFrom` says which are already used: the same hash replays the stored reply,
 * another hash is IDEMPOTENCY_KEY_REUSED, an expired key is new. The batch does its work and
 * stores the keys of the requests it accepted together with their replies (`insertKeysText`,
 * which takes an expired row's place); a refused request stores nothing, so a retry runs
 * again, as after a rolled-back `runIdempotent`. If a key turns out to be taken meanwhile (a
 * concurrent duplicate: the insert waits for it to commit), the insert fails with a unique
 * violation of `idempotency_keys_user_id_key_pk`: the caller raises KeyTakenError, rolls back
 * and retries those requests, which then replay.
 */
export interface BatchKey {
  userId: number;
  key: string;
  hash: string;
}

export type StoredKey =
  { kind: 'new' } | { kind: 'replay'; response: unknown } | { kind: 'reused' };

export class KeyTakenError extends Error {
  constructor() {
    super('an idempotency key of the batch was taken by a concurrent request');
    this.name = 'KeyTakenError';
  }
}

/**
 * The insert of the keys, its parameters numbered from `$first` (so a batch can run it as a
 * part of one of its own statements): user ids, keys, hashes, the replies, the time, the
 * expiry cutoff. A key whose row has expired takes that row over; a key still live is taken
 * (a unique violation: KeyTakenError, raised by `idempotency_key_expired`, migration 0042, as
 * the plain insert would), so the statement it is part of never commits without every key.
 * The replies travel as one JSON array (json keeps each element's text as written, so a
 * replay is byte-identical), not as a text[] that the driver would escape character by character.
 */
export function insertKeysText(first: number): string {
  const $ = (n: number) => `$${first + n}`;
  return `insert into idempotency_keys as s (user_id, key, request_hash, response, created_at)
         select k.user_id, k.key, k.request_hash, r.response::text, ${$(4)}::timestamptz
         from unnest(${$(0)}::bigint[], ${$(1)}::text[], ${$(2)}::text[]) with ordinality as k(user_id, key, request_hash, n)
         join json_array_elements(${$(3)}::json) with ordinality as r(response, n) on r.n = k.n
         order by k.user_id, k.key
         on conflict (user_id, key) do update set request_hash = excluded.request_hash, response = excluded.response, created_at = excluded.created_at
           where idempotency_key_expired(s.created_at, ${$(5)}::timestamptz)
         returning key`;
}

/** The values for `insertKeysText`, in its order. */
export function insertKeysValues(
  now: Date,
  entries: readonly (BatchKey & { response: unknown })[],
): unknown[] {
  return [
    entries.map((e) => String(e.userId)),
    entries.map((e) => e.key),
    entries.map((e) => e.hash),
    `[${entries.map((e) => JSON.stringify(e.response)).join(',')}]`,
    now,
    keyExpiryCutoff(now),
  ];
}

const keyId = (userId: number, key: string) => `${userId}\u0000${key}`;

/**
 * A stored key as read in SQL (`user_id::text, key, request_hash, response` of
 * `idempotency_keys`, and `(extract(epoch from created_at) * 1000)::float8 as created_ms`).
 */
export interface StoredKeyRow {
  user_id: string;
  key: string;
  request_hash: string;
  response: string | null;
  /** When the key was stored; a reader that leaves it out sees expired keys as live until they are pruned. */
  created_ms?: number;
}

/**
 * What each key of the batch already holds at `now`, in the order of `keys`, from the rows
 * read for them (in the batch's own statement). An expired row is no key: the request is new.
 */
export function storedKeysFrom(
  keys: readonly { userId: number; key: string; hash: string }[],
  rows: readonly StoredKeyRow[],
  now?: Date,
): StoredKey[] {
  const stored = new Map(rows.map((row) => [keyId(Number(row.user_id), row.key), row]));
  const cutoffMs = now ? keyExpiryCutoff(now).getTime() : null;
  return keys.map((k): StoredKey => {
    const row = stored.get(keyId(k.userId, k.key));
    if (!row || (cutoffMs !== null && row.created_ms !== undefined && row.created_ms <= cutoffMs))
      return { kind: 'new' };
    if (row.request_hash !== k.hash) return { kind: 'reused' };
    return { kind: 'replay', response: JSON.parse(row.response ?? 'null') };
  });
}

/** Keys deleted per prune statement: each holds its row locks briefly, and a backlog goes a statement at a time. */
export const PRUNE_BATCH = 1_000;

/**
 * Deletes up to `batch` keys expired at `now`, oldest first (by `idempotency_keys_created_at_idx`);
 * returns how many. A key a request is taking over at this moment is locked and skipped, and
 * the age is checked again on the row as it stands when deleted: a key renewed meanwhile stays.
 */
export async function pruneExpiredKeys(
  db: Db,
  now: Date,
  batch: number = PRUNE_BATCH,
): Promise<number> {
  const cutoff = keyExpiryCutoff(now).toISOString();
  const [row] = await queryRows<{ deleted: number }>(
    db,
    sql`with d as (
          delete from idempotency_keys where created_at <= ${cutoff}::timestamptz and (user_id, key) in (
            select user_id, key from idempotency_keys where created_at <= ${cutoff}::timestamptz
            order by created_at limit ${batch} for update skip locked)
          returning 1)
        select count(*)::int4 as deleted from d`,
  );
  return row?.deleted ?? 0;
}
