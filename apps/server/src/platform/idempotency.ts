import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import type { Db, Tx } from './db.ts';
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
