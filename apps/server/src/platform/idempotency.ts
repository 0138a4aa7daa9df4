import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import { type Db, type NamedStatement, type Tx, runNamed } from './db.ts';
import { AppError } from './errors.ts';
import { idempotencyKeys } from './tables.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && KEY_PATTERN.test(value);
}

export function requestHash(method: string, url: string, body: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify([method, url.split('?')[0], body ?? null])).digest('hex');
}

/**
 * Runs a money-moving request exactly once per (user, key). The key row is written first
 * in the same transaction as the work: a concurrent duplicate waits on it, then replays the
 * stored reply; a failed attempt rolls back its key with everything else, so a retry runs
 * again. The same key with another body is refused (IDEMPOTENCY_KEY_REUSED) and changes
 * nothing.
 */
export async function runIdempotent<T>(
  deps: { db: Db; clock: Clock },
  input: { userId: number; key: string; hash: string },
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ userId: input.userId, key: input.key, requestHash: input.hash, createdAt: deps.clock.now() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    const where = and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key));
    if (inserted.length === 0) {
      const [stored] = await tx.select().from(idempotencyKeys).where(where).limit(1);
      if (!stored || stored.requestHash !== input.hash) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 409);
      return JSON.parse(stored.response ?? 'null') as T;
    }
    const result = await work(tx as Tx);
    await tx.update(idempotencyKeys).set({ response: JSON.stringify(result) }).where(where);
    return result;
  });
}

/**
 * The same promise as `runIdempotent`, for requests grouped into one transaction (group
 * commit). Inside the batch's transaction, `claimKeys` writes every key first (in one order,
 * so concurrent batches cannot deadlock on them; a concurrent duplicate waits for the first
 * to commit); a key already stored is a replay (same hash: its stored reply) or a reuse
 * (another hash: IDEMPOTENCY_KEY_REUSED). The batch then stores each accepted request's
 * reply with `storeReplies`, and removes the keys of refused requests with `releaseKeys`,
 * so a retry runs again, as a rolled-back `runIdempotent` would.
 */
export interface BatchKey {
  userId: number;
  key: string;
  hash: string;
}

export type ClaimResult = { kind: 'claimed' } | { kind: 'replay'; response: unknown } | { kind: 'reused' };

const CLAIM_KEYS: NamedStatement = {
  name: 'idempotency_claim_keys',
  text: `insert into idempotency_keys (user_id, key, request_hash, created_at)
         select user_id, key, request_hash, $4::timestamptz
         from unnest($1::bigint[], $2::text[], $3::text[]) as k(user_id, key, request_hash)
         order by user_id, key
         on conflict do nothing
         returning user_id::text, key`,
};

const STORED_KEYS: NamedStatement = {
  name: 'idempotency_stored_keys',
  text: `select k.user_id::text, k.key, k.request_hash, k.response
         from idempotency_keys k join unnest($1::bigint[], $2::text[]) as w(user_id, key) on k.user_id = w.user_id and k.key = w.key`,
};

const STORE_REPLIES: NamedStatement = {
  name: 'idempotency_store_replies',
  text: `update idempotency_keys k set response = r.response
         from unnest($1::bigint[], $2::text[], $3::text[]) as r(user_id, key, response)
         where k.user_id = r.user_id and k.key = r.key`,
};

const RELEASE_KEYS: NamedStatement = {
  name: 'idempotency_release_keys',
  text: `delete from idempotency_keys k using unnest($1::bigint[], $2::text[]) as r(user_id, key)
         where k.user_id = r.user_id and k.key = r.key`,
};

const keyId = (userId: number, key: string) => `${userId}\u0000${key}`;

/** Claims every key of a batch; `keys` must not repeat a (user, key) pair. Results are in the order of `keys`. */
export async function claimKeys(tx: Tx, now: Date, keys: BatchKey[]): Promise<ClaimResult[]> {
  const claimed = new Set(
    (await runNamed<{ user_id: string; key: string }>(tx, CLAIM_KEYS, [keys.map((k) => String(k.userId)), keys.map((k) => k.key), keys.map((k) => k.hash), now])).map((row) =>
      keyId(Number(row.user_id), row.key),
    ),
  );
  const others = keys.filter((k) => !claimed.has(keyId(k.userId, k.key)));
  const stored = new Map<string, { hash: string; response: string | null }>();
  if (others.length > 0) {
    const rows = await runNamed<{ user_id: string; key: string; request_hash: string; response: string | null }>(tx, STORED_KEYS, [others.map((k) => String(k.userId)), others.map((k) => k.key)]);
    for (const row of rows) stored.set(keyId(Number(row.user_id), row.key), { hash: row.request_hash, response: row.response });
  }
  return keys.map((k): ClaimResult => {
    const id = keyId(k.userId, k.key);
    if (claimed.has(id)) return { kind: 'claimed' };
    const row = stored.get(id);
    if (!row || row.hash !== k.hash) return { kind: 'reused' };
    return { kind: 'replay', response: JSON.parse(row.response ?? 'null') };
  });
}

export async function storeReplies(tx: Tx, replies: { userId: number; key: string; response: unknown }[]): Promise<void> {
  if (replies.length === 0) return;
  await runNamed(tx, STORE_REPLIES, [replies.map((r) => String(r.userId)), replies.map((r) => r.key), replies.map((r) => JSON.stringify(r.response))]);
}

export async function releaseKeys(tx: Tx, keys: { userId: number; key: string }[]): Promise<void> {
  if (keys.length === 0) return;
  await runNamed(tx, RELEASE_KEYS, [keys.map((k) => String(k.userId)), keys.map((k) => k.key)]);
}
