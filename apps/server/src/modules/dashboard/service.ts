import {
  DASHBOARD_DAYS,
  type Dashboard,
  type DashboardFlowDay,
  type DashboardQueues,
} from '@tradewind/contract/dashboard';
import { CONTRACT_ASSET } from '@tradewind/contract/instant';
import { LOAN_STATUS } from '@tradewind/contract/loans';
import { MINING_RENTAL_STATUS } from '@tradewind/contract/mining';
import { formatAmount } from '@tradewind/contract/money';
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '#platform/db.ts';
import { latestLedgerCheck } from './ledger-check.ts';

/**
 * The operator dashboard (issue 7). Every query is bounded: the daily figures read a
 * 30-day range of a handful of external and house accounts through the postings' (account,
 * time) index; the queue sizes count the queues' partial indexes; the obligations read the
 * open orders' partial index and the user accounts that hold something locked.
 */

const DAY_MS = 86_400_000;

export interface DashboardWindow {
  /** Inclusive: the start of the first UTC day. */
  from: Date;
  /** Exclusive: the end of today (UTC). */
  to: Date;
  days: string[];
}

/** The last DASHBOARD_DAYS UTC days, today included. */
export function dashboardWindow(now: Date): DashboardWindow {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const first = today - (DASHBOARD_DAYS - 1) * DAY_MS;
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) =>
    new Date(first + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from: new Date(first), to: new Date(today + DAY_MS), days };
}

async function scales(db: Executor): Promise<Map<string, number>> {
  const rows = await queryRows<{ code: string; scale: number }>(
    db,
    sql`select code, scale from assets`,
  );
  return new Map(rows.map((row) => [row.code, Number(row.scale)]));
}

const dayOf = sql`to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * Money in and out by day and asset, read from the ledger rather than the deposit and
 * withdrawal tables: the ledger is what actually moved, when it moved (a deposit counts
 * the day it was credited, a withdrawal the day it succeeded), and in what amount. The
 * entries are told apart by their kind, which only their own module writes: `deposit` (the
 * chain watcher), `card_deposit` (an operator's confirmation), `withdrawal` (its `withdraw`
 * postings to the outside: only a completed withdrawal has them; refunds stay inside).
 */
export async function dailyFlows(
  db: Executor,
  window: DashboardWindow,
): Promise<Dashboard['flows']> {
  const rows = await queryRows<{
    day: string;
    asset: string;
    outside: string;
    type: string;
    kind: string;
    amount: string;
  }>(
    db,
    sql`select ${dayOf} as day, a.asset, split_part(a.name, ':', 2) as outside, p.type, e.kind, sum(p.amount)::text as amount
        from ledger_accounts a
        join ledger_postings p on p.account_id = a.id and p.created_at >= ${window.from} and p.created_at < ${window.to}
        join ledger_entries e on e.id = p.entry_id
        where a.kind = 'external' and split_part(a.name, ':', 2) in ('chain', 'bank')
          and e.kind in ('deposit', 'card_deposit', 'withdrawal')
        group by 1, 2, 3, 4, 5`,
  );
  const totals = new Map<string, Map<string, { chain: bigint; card: bigint; out: bigint }>>();
  for (const row of rows) {
    const byDay =
      totals.get(row.asset) ?? new Map<string, { chain: bigint; card: bigint; out: bigint }>();
    totals.set(row.asset, byDay);
    const day = byDay.get(row.day) ?? { chain: 0n, card: 0n, out: 0n };
    byDay.set(row.day, day);
    const amount = BigInt(row.amount);
    // The outside account's side of the entry: negative when money came in.
    if (row.kind === 'deposit' && row.outside === 'chain' && row.type === 'deposit')
      day.chain -= amount;
    else if (row.kind === 'card_deposit' && row.outside === 'bank' && row.type === 'deposit')
      day.card -= amount;
    else if (row.kind === 'withdrawal' && row.type === 'withdraw') day.out += amount;
  }
  const scaleOf = await scales(db);
  return [...totals.keys()].sort().map((asset) => {
    const scale = scaleOf.get(asset) ?? 0;
    const byDay = totals.get(asset);
    return {
      asset,
      scale,
      days: window.days.map((day): DashboardFlowDay => {
        const value = byDay?.get(day) ?? { chain: 0n, card: 0n, out: 0n };
        return {
          day,
          chainDeposits: formatAmount(value.chain, scale),
          cardDeposits: formatAmount(value.card, scale),
          withdrawals: formatAmount(value.out, scale),
        };
      }),
    };
  });
}

/**
 * What the house accounts gained (positive) or lost from instant contracts, by day: the
 * `house:contracts` postings (a lost stake in, a won order's profit out; only settlement
 * posts there) and the `house:fees` postings of type `position_fee` (the fee of each settled order).
 */
export async function dailyHouseResult(
  db: Executor,
  window: DashboardWindow,
): Promise<Dashboard['house']> {
  const contracts = `house:contracts:${CONTRACT_ASSET}`;
  const fees = `house:fees:${CONTRACT_ASSET}`;
  const rows = await queryRows<{ day: string; name: string; amount: string }>(
    db,
    sql`select ${dayOf} as day, a.name, sum(p.amount)::text as amount
        from ledger_accounts a
        join ledger_postings p on p.account_id = a.id and p.created_at >= ${window.from} and p.created_at < ${window.to}
        where a.name in (${contracts}, ${fees}) and (a.name = ${contracts} or p.type = 'position_fee')
        group by 1, 2`,
  );
  const scale = (await scales(db)).get(CONTRACT_ASSET) ?? 6;
  const settlement = new Map<string, bigint>();
  const fee = new Map<string, bigint>();
  for (const row of rows) {
    const target = row.name === contracts ? settlement : fee;
    target.set(row.day, (target.get(row.day) ?? 0n) + BigInt(row.amount));
  }
  return {
    asset: CONTRACT_ASSET,
    scale,
    days: window.days.map((day) => {
      const s = settlement.get(day) ?? 0n;
      const f = fee.get(day) ?? 0n;
      return {
        day,
        settlement: formatAmount(s, scale),
        fees: formatAmount(f, scale),
        net: formatAmount(s + f, scale),
      };
    }),
  };
}

/** Items waiting for an operator, each counted on its queue's partial index. */
export async function queueSizes(db: Executor): Promise<DashboardQueues> {
  const [row] = await queryRows<Record<keyof DashboardQueues, number>>(
    db,
    sql`select
          (select count(*) from kyc_submissions where status = 'pending')::int4 as "kyc",
          (select count(*) from card_deposits where status = 'pending')::int4 as "cardDeposits",
          (select count(*) from withdrawals where status = 'under_review')::int4 as "withdrawalsUnderReview",
          (select count(*) from withdrawals where status = 'processing')::int4 as "withdrawalsProcessing",
          (select count(*) from mining_rentals where status = ${MINING_RENTAL_STATUS.under_review})::int4 as "rentals",
          (select count(*) from loans where status = ${LOAN_STATUS.under_review})::int4 as "loansUnderReview",
          (select count(*) from loans where status = ${LOAN_STATUS.pending_disbursement})::int4 as "loansAwaitingDisbursement"`,
  );
  if (!row) throw new Error('queue sizes returned no row');
  return {
    kyc: Number(row.kyc),
    cardDeposits: Number(row.cardDeposits),
    withdrawalsUnderReview: Number(row.withdrawalsUnderReview),
    withdrawalsProcessing: Number(row.withdrawalsProcessing),
    rentals: Number(row.rentals),
    loansUnderReview: Number(row.loansUnderReview),
    loansAwaitingDisbursement: Number(row.loansAwaitingDisbursement),
  };
}

/**
 * Funds locked per asset: every user's locked balance (withdrawals, orders, subscriptions…),
 * and the open contract orders' stakes, fees and what they would pay if all won.
 */
export async function openObligations(db: Executor): Promise<Dashboard['obligations']> {
  const locked = await queryRows<{ asset: string; locked: string }>(
    db,
    sql`select asset, sum(locked)::text as locked from ledger_accounts where kind = 'user' and locked <> 0 group by asset`,
  );
  const [orders] = await queryRows<{
    n: number;
    stakes: string | null;
    fees: string | null;
    payouts: string | null;
  }>(
    db,
    sql`select count(*)::int4 as n, sum(stake_minor)::text as stakes, sum(fee_minor)::text as fees,
               sum(stake_minor + div(stake_minor * payout_rate_ppm, 1000000))::text as payouts
        from contract_orders where state = 'open'`,
  );
  const scaleOf = await scales(db);
  const assets = new Set(locked.map((row) => row.asset));
  if (orders && Number(orders.n) > 0) assets.add(CONTRACT_ASSET);
  return [...assets].sort().map((asset) => {
    const scale = scaleOf.get(asset) ?? 0;
    const contract = asset === CONTRACT_ASSET && orders;
    return {
      asset,
      scale,
      usersLocked: formatAmount(
        BigInt(locked.find((row) => row.asset === asset)?.locked ?? '0'),
        scale,
      ),
      openOrders: contract ? Number(orders.n) : 0,
      openStakes: formatAmount(contract ? BigInt(orders.stakes ?? '0') : 0n, scale),
      openFees: formatAmount(contract ? BigInt(orders.fees ?? '0') : 0n, scale),
      openMaxPayouts: formatAmount(contract ? BigInt(orders.payouts ?? '0') : 0n, scale),
    };
  });
}

export async function dashboard(db: Executor, now: Date): Promise<Dashboard> {
  const window = dashboardWindow(now);
  const [flows, house, queues, obligations, ledgerCheck] = await Promise.all([
    dailyFlows(db, window),
    dailyHouseResult(db, window),
    queueSizes(db),
    openObligations(db),
    latestLedgerCheck(db),
  ]);
  return {
    generatedAt: now.toISOString(),
    from: window.days[0] ?? '',
    to: window.days[window.days.length - 1] ?? '',
    flows,
    house,
    queues,
    obligations,
    ledgerCheck,
  };
}
