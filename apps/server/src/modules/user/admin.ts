import { type Language, isLanguage } from '@tradewind/contract/languages';
import { formatAmount } from '@tradewind/contract/money';
import {
  MONEY_FLOW_KINDS,
  USER_SEARCH_PAGE_SIZE,
  type AdminUserDetail,
  type UserSearch,
  type UserSearchQuery,
} from '@tradewind/contract/user-admin';
import { type SQL, and, desc, eq, gt, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { sessions } from '../auth/tables.ts';
import { contractOrders } from '../contracts/tables.ts';
import { creditScore } from '../credit/service.ts';
import { kycSubmissions } from '../kyc/tables.ts';
import { listUserPostings } from '../ledger/postings.ts';
import { assetScales, userBalances } from '../ledger/service.ts';
import { pointsBalance } from '../points/service.ts';
import { users } from './tables.ts';

/**
 * What an operator reads about one user (issue 7): search, profile, KYC, balances from the
 * ledger, postings, contract orders and a summary of deposits and withdrawals. Read-only:
 * nothing here writes, and the balances come from the ledger's accounts, never a copy.
 */

/** Escapes LIKE's wildcards so `q` matches literally. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Newest first. A uid matches exactly; email, phone and nickname match a substring, case
 * aside. A substring search scans the users table: fine for a console, bounded by the page.
 */
export async function searchUsers(
  db: Executor,
  query: UserSearchQuery,
  limit = USER_SEARCH_PAGE_SIZE,
): Promise<UserSearch> {
  const q = query.q;
  const pattern = likePattern(q);
  const matches: SQL[] = [
    ilike(users.email, pattern),
    ilike(users.phone, pattern),
    ilike(users.nickname, pattern),
  ];
  if (/^\d{1,18}$/.test(q)) matches.push(eq(users.id, Number(q)));
  const conditions: SQL[] = [or(...matches) as SQL];
  if (query.cursor) conditions.push(lt(users.id, Number(query.cursor)));
  const rows = await db
    .select({
      id: users.id,
      nickname: users.nickname,
      email: users.email,
      phone: users.phone,
      verified: users.verified,
      frozenAt: users.frozenAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(...conditions))
    .orderBy(desc(users.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => ({
      uid: String(row.id),
      nickname: row.nickname,
      email: row.email,
      phone: row.phone,
      verified: row.verified,
      frozen: row.frozenAt !== null,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

const KYC_SHOWN = 20;

/** Raises USER_NOT_FOUND. */
export async function userDetail(
  db: Executor,
  now: Date,
  userId: number,
): Promise<AdminUserDetail> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('USER_NOT_FOUND', {}, 404);
  const kyc = await db
    .select()
    .from(kycSubmissions)
    .where(eq(kycSubmissions.userId, userId))
    .orderBy(desc(kycSubmissions.id))
    .limit(KYC_SHOWN);
  const scales = await assetScales(db);
  const scaleOf = (asset: string) => scales.get(asset) ?? 0;
  const balances = await userBalances(db, userId);
  const flows = await queryRows<{
    kind: string;
    status: string;
    asset: string;
    count: number;
    amount: string;
  }>(
    db,
    sql`select 'deposit' as kind, status, asset, count(*)::int as count, sum(amount_minor)::text as amount from deposits where user_id = ${userId} group by status, asset
        union all
        select 'withdrawal', status, asset, count(*)::int, sum(amount_minor)::text from withdrawals where user_id = ${userId} group by status, asset
        union all
        select 'card_deposit', status, asset, count(*)::int, sum(amount_minor)::text from card_deposits where user_id = ${userId} group by status, asset
        order by 1, 2, 3`,
  );
  const [active] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    );
  return {
    profile: {
      uid: String(user.id),
      nickname: user.nickname,
      email: user.email,
      phone: user.phone,
      emailVerified: user.emailVerified,
      phoneVerified: user.phoneVerified,
      language: (isLanguage(user.language) ? user.language : 'en') as Language,
      verified: user.verified,
      createdAt: user.createdAt.toISOString(),
      frozenAt: user.frozenAt?.toISOString() ?? null,
      frozenReason: user.frozenReason,
      creditScore: await creditScore(db, userId),
      points: await pointsBalance(db, userId),
      inviteCode: user.inviteCode,
      inviterUid: user.inviterId === null ? null : String(user.inviterId),
    },
    kyc: kyc.map((row) => ({
      id: String(row.id),
      status: row.status,
      country: row.country,
      firstName: row.firstName,
      lastName: row.lastName,
      documentType: row.documentType,
      documentNumber: row.documentNumber,
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
    })),
    balances: balances
      .sort((a, b) => a.wallet.localeCompare(b.wallet) || a.asset.localeCompare(b.asset))
      .map((b) => ({
        wallet: b.wallet,
        asset: b.asset,
        available: formatAmount(b.available, scaleOf(b.asset)),
        locked: formatAmount(b.locked, scaleOf(b.asset)),
      })),
    moneyFlows: flows
      .filter((row) => (MONEY_FLOW_KINDS as readonly string[]).includes(row.kind))
      .map((row) => ({
        kind: row.kind as (typeof MONEY_FLOW_KINDS)[number],
        status: row.status,
        asset: row.asset,
        count: Number(row.count),
        amount: formatAmount(BigInt(row.amount), scaleOf(row.asset)),
      })),
    activeSessions: active?.n ?? 0,
  };
}

async function requireUser(db: Executor, userId: number): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('USER_NOT_FOUND', {}, 404);
}

/** The user's postings, newest first, exactly as their funds detail shows them (memo included). */
export async function userPostings(
  db: Executor,
  userId: number,
  page: { cursor?: string | undefined; limit: number },
) {
  await requireUser(db, userId);
  const rows = await listUserPostings(
    db,
    userId,
    { beforeId: page.cursor ? Number(page.cursor) : undefined },
    page.limit + 1,
  );
  const scales = await assetScales(db);
  const shown = rows.slice(0, page.limit);
  return {
    items: shown.map((p) => ({
      id: String(p.id),
      time: p.createdAt.toISOString(),
      type: p.type,
      asset: p.asset,
      wallet: p.wallet,
      bucket: p.bucket,
      amount: formatAmount(p.amount, scales.get(p.asset) ?? 0),
      memo: p.memo,
      reference: p.reference,
    })),
    nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]?.id) : null,
  };
}

const USDT_SCALE = 6;

/** The user's instant-contract orders, newest first. */
export async function userOrders(
  db: Executor,
  userId: number,
  page: { cursor?: string | undefined; limit: number },
) {
  await requireUser(db, userId);
  const conditions: SQL[] = [eq(contractOrders.userId, userId)];
  if (page.cursor) conditions.push(lt(contractOrders.id, Number(page.cursor)));
  const rows = await db
    .select()
    .from(contractOrders)
    .where(and(...conditions))
    .orderBy(desc(contractOrders.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  return {
    items: shown.map((o) => ({
      id: String(o.id),
      instrument: o.instrument,
      direction: o.direction,
      periodSeconds: o.periodSeconds,
      stake: formatAmount(o.stakeMinor, USDT_SCALE),
      fee: formatAmount(o.feeMinor, USDT_SCALE),
      state: o.state,
      outcome: o.outcome,
      payout: o.payoutMinor === null ? null : formatAmount(o.payoutMinor, USDT_SCALE),
      createdAt: o.createdAt.toISOString(),
      deliverAt: o.deliverAt.toISOString(),
    })),
    nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]?.id) : null,
  };
}
