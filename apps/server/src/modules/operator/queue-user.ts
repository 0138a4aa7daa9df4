import type { QueueUser } from '@tradewind/contract/operator';
import { inArray } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { users } from '../user/tables.ts';

/**
 * The reviewer's view of the users behind queue items: verified, frozen. One query per
 * page, whatever the page's size.
 */
export async function queueUsers(
  db: Executor,
  userIds: readonly number[],
): Promise<Map<number, QueueUser>> {
  const ids = [...new Set(userIds)];
  const found = new Map<number, QueueUser>();
  if (ids.length === 0) return found;
  const rows = await db
    .select({ id: users.id, verified: users.verified, frozenAt: users.frozenAt })
    .from(users)
    .where(inArray(users.id, ids));
  for (const row of rows)
    found.set(row.id, {
      uid: String(row.id),
      verified: row.verified,
      frozen: row.frozenAt !== null,
    });
  return found;
}

/** Adds `user` to items that carry a `uid`; every item's user exists (a foreign key says so). */
export async function withQueueUsers<T extends { uid: string }>(
  db: Executor,
  items: readonly T[],
): Promise<(T & { user: QueueUser })[]> {
  const found = await queueUsers(
    db,
    items.map((item) => Number(item.uid)),
  );
  return items.map((item) => {
    const user = found.get(Number(item.uid));
    if (!user) throw new Error(`queue item of unknown user ${item.uid}`);
    return { ...item, user };
  });
}

export async function withQueueUser<T extends { uid: string }>(
  db: Executor,
  item: T,
): Promise<T & { user: QueueUser }> {
  const [withUser] = await withQueueUsers(db, [item]);
  if (!withUser) throw new Error('withQueueUsers lost an item');
  return withUser;
}
