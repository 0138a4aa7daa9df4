import { type SQL, and, count, desc, eq, gte, inArray, lt, max } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import type { PostingFilter } from './postings.ts';
import { postings } from './tables.ts';

/**
 * How many of the user's postings match the filter, counted up to `cap + 1` (an export asks
 * "more than its limit?" without counting a whole history), and the newest one's id: what
 * `listUserPostings` pages through from there. The conditions are `listUserPostings`'s;
 * test/funds-export.test.ts holds the two to the same rows.
 */
export async function countUserPostings(db: Executor, userId: number, filter: PostingFilter, cap: number): Promise<{ count: number; newestId: number | null }> {
  const conditions: SQL[] = [eq(postings.userId, userId)];
  if (filter.types && filter.types.length > 0) conditions.push(inArray(postings.type, [...filter.types]));
  if (filter.asset) conditions.push(eq(postings.asset, filter.asset));
  if (filter.wallet) conditions.push(eq(postings.wallet, filter.wallet));
  if (filter.from) conditions.push(gte(postings.createdAt, filter.from));
  if (filter.to) conditions.push(lt(postings.createdAt, filter.to));
  if (filter.beforeId !== undefined) conditions.push(lt(postings.id, filter.beforeId));
  const capped = db
    .select({ id: postings.id })
    .from(postings)
    .where(and(...conditions))
    .orderBy(desc(postings.id))
    .limit(cap + 1)
    .as('capped');
  const [row] = await db.select({ count: count(), newestId: max(capped.id) }).from(capped);
  return { count: row?.count ?? 0, newestId: row?.newestId ?? null };
}
