import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#platform/db.ts';
import { demoWalkKeys } from './tables.ts';

/**
 * The demo walk's key: the stored one, or 32 bytes from the operating system's secure
 * random source stored now. Two processes starting together both insert-or-keep and read
 * back the same row, so every recorder of one database walks with one key.
 */
export async function demoWalkKey(db: Db, now: Date): Promise<Uint8Array> {
  await db
    .insert(demoWalkKeys)
    .values({ id: 1, keyHex: randomBytes(32).toString('hex'), createdAt: now })
    .onConflictDoNothing();
  const [row] = await db
    .select({ keyHex: demoWalkKeys.keyHex })
    .from(demoWalkKeys)
    .where(eq(demoWalkKeys.id, 1));
  if (!row) throw new Error('the demo walk key could not be stored');
  return new Uint8Array(Buffer.from(row.keyHex, 'hex'));
}
