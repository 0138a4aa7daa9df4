import type { AssetCode, EntryType, Wallet } from '@tradewind/contract/wallet';
import { type SQL, and, count, desc, eq, gte, inArray, lt, max } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { entries, postings } from './tables.ts';

/**
 * Reading a user's own postings: their funds detail (ARCHITECTURE §5). Always through
 * the owner: there is no way to ask for another user's postings.
 */

export interface PostingFilter {
  types?: readonly EntryType[] | undefined;
  asset?: AssetCode | undefined;
  wallet?: Wallet | undefined;
  /** Inclusive. */
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  /** Only postings with a smaller id (the previous page's last). */
  beforeId?: number | undefined;
}

export interface UserPosting {
  id: number;
  createdAt: Date;
  type: EntryType;
  asset: AssetCode;
  wallet: Wallet;
  bucket: 'available' | 'locked';
  amount: bigint;
  memo: string | null;
  reference: string;
}

/** Which of the user's postings the filter selects: one statement of it for the list and the count. */
function matching(userId: number, filter: PostingFilter): SQL | undefined {
  const conditions: SQL[] = [eq(postings.userId, userId)];
  if (filter.types && filter.types.length > 0)
    conditions.push(inArray(postings.type, [...filter.types]));
  if (filter.asset) conditions.push(eq(postings.asset, filter.asset));
  if (filter.wallet) conditions.push(eq(postings.wallet, filter.wallet));
  if (filter.from) conditions.push(gte(postings.createdAt, filter.from));
  if (filter.to) conditions.push(lt(postings.createdAt, filter.to));
  if (filter.beforeId !== undefined) conditions.push(lt(postings.id, filter.beforeId));
  return and(...conditions);
}

/** The user's postings matching the filter, newest first (by id: no ties, so pages neither overlap nor skip). */
export async function listUserPostings(
  db: Executor,
  userId: number,
  filter: PostingFilter,
  limit: number,
): Promise<UserPosting[]> {
  const rows = await db
    .select({
      id: postings.id,
      createdAt: postings.createdAt,
      type: postings.type,
      asset: postings.asset,
      wallet: postings.wallet,
      bucket: postings.bucket,
      amount: postings.amount,
      memo: entries.memo,
      reference: entries.reference,
    })
    .from(postings)
    .innerJoin(entries, eq(entries.id, postings.entryId))
    .where(matching(userId, filter))
    .orderBy(desc(postings.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    type: row.type as EntryType,
    asset: row.asset as AssetCode,
    wallet: row.wallet as Wallet,
    bucket: row.bucket as 'available' | 'locked',
    amount: row.amount,
    memo: row.memo,
    reference: row.reference,
  }));
}

/**
 * How many of the user's postings match the filter, counted up to `cap + 1` (an export asks
 * "more than its limit?" without counting a whole history), and the newest one's id: what
 * `listUserPostings` pages through from there.
 */
export async function countUserPostings(
  db: Executor,
  userId: number,
  filter: PostingFilter,
  cap: number,
): Promise<{ count: number; newestId: number | null }> {
  const capped = db
    .select({ id: postings.id })
    .from(postings)
    .where(matching(userId, filter))
    .orderBy(desc(postings.id))
    .limit(cap + 1)
    .as('capped');
  const [row] = await db.select({ count: count(), newestId: max(capped.id) }).from(capped);
  return { count: row?.count ?? 0, newestId: row?.newestId ?? null };
}
