import crypto from 'node:crypto';
import {
  CONTRACT_ASSET,
  type ContractConfig,
  type ContractSettingsRequest,
  type Direction,
  type Order,
  type OrderDisplayStatus,
  type OrderTick,
  type OrdersQuery,
  type Orders,
  type Outcome,
  type Period,
  type Replay,
  breakEvenWinRatePct,
  outcomeOf,
} from '@tradewind/contract/instant';
import type { Language } from '@tradewind/contract/languages';
import { INSTRUMENTS, type InstrumentSymbol, isInstrumentSymbol } from '@tradewind/contract/market';
import { formatAmount, formatFixed } from '@tradewind/contract/money';
import { payoutOf, profitOf } from '@tradewind/contract/payout';
import { indexPrice } from '@tradewind/contract/price-index';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { readSharedSettings } from '../settings/service.ts';
import { translate } from '#platform/i18n.ts';
import { type EntrySpec, houseAccount, userAccount } from '../ledger/service.ts';
import {
  type RecordedPrice,
  latestPrice,
  latestPrices,
  sourceLabel,
  tickProofs,
  tickQuotes,
} from '../market/service.ts';
import { type TickComponent, ticks } from '../market/tables.ts';
import { isMoneyPasswordSet } from '../money-password/service.ts';
import { contractOrders, contractPeriods, contractSettings } from './tables.ts';

/**
 * Instant contracts (ARCHITECTURE §6): periods, order views, the user's settings, the
 * public replay and the ledger entries of an order. The fee and payout rule is
 * `@tradewind/contract/payout`, shared with the screens. Placement is in `place-order.ts`
 * and `batcher.ts` (group commit), settlement in `settlement.ts`. Errors raised here: ORDER_NOT_FOUND,
 * INVALID_STATE (replay of an order not settled yet), AMOUNT_PRECISION.
 */

const USDT_SCALE = ASSETS.USDT.scale;
const QUANTITY_SCALE = 8;

const usdt = (minor: bigint) => formatAmount(minor, USDT_SCALE);
const rateText = (ppm: number) => formatAmount(BigInt(ppm), 6);

/** The start of the UTC day of `now`: the daily loss limit counts from here. */
export function utcDayStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
}

/**
 * A tick as an order refers to it. Both prices an order settles on are recorded ticks;
 * the order copies their prices (ticks never change) and shows where they came from.
 */
export interface TickRef {
  id: number;
  priceMinor: bigint;
  ts: Date;
  source: string;
  /** The source quotes the price is the index of (market_ticks.components); unknown where a hot path did not read them. */
  components?: TickComponent[] | null;
}

export const tickRefOf = (price: RecordedPrice): TickRef => ({
  id: price.tickId,
  priceMinor: price.priceMinor,
  ts: price.ts,
  source: price.source,
  ...(price.components === undefined ? {} : { components: price.components }),
});

/** Whether a tick's price is the index of its quotes at its instant (packages/contract price-index.ts). */
export function tickIndexAgrees(tick: TickRef): boolean {
  return indexPrice(tickQuotes(tick), tick.ts.getTime())?.priceMinor === tick.priceMinor;
}

/** An order with its ticks, as read from the database or built by placement. */
export interface OrderRecord {
  id: number;
  publicId: string;
  userId: number;
  instrument: InstrumentSymbol;
  direction: Direction;
  periodSeconds: number;
  payoutRatePpm: number;
  feeRatePpm: number;
  stakeMinor: bigint;
  feeMinor: bigint;
  openTick: TickRef;
  createdAt: Date;
  deliverAt: Date;
  state: 'open' | 'settled';
  outcome: Outcome | null;
  closeTick: TickRef | null;
  payoutMinor: bigint | null;
  settledAt: Date | null;
}

/** 22 random base64url characters (132 bits): the replay link cannot be guessed. */
export function newPublicId(): string {
  return crypto.randomBytes(17).toString('base64url').slice(0, 22);
}

function tickView(tick: TickRef, instrument: InstrumentSymbol, lang: Language): OrderTick {
  const scale = INSTRUMENTS[instrument].priceScale;
  return {
    id: String(tick.id),
    price: formatAmount(tick.priceMinor, scale),
    ts: tick.ts.toISOString(),
    source: tick.source,
    sourceLabel: sourceLabel(lang, tick.source),
    ...(tick.components === undefined
      ? {}
      : {
          quotes: tickQuotes(tick).map((quote) => ({
            source: quote.source,
            sourceLabel: sourceLabel(lang, quote.source),
            price: formatAmount(quote.priceMinor, scale),
            sourceTime: new Date(quote.sourceTimeMs).toISOString(),
            receivedAt: new Date(quote.receivedAtMs).toISOString(),
          })),
        }),
  };
}

/** A percentage with two places, truncated toward zero: 1234 basis points → "12.34". */
function percentText(numerator: bigint, denominator: bigint): string {
  const basisPoints = (numerator * 10_000n) / denominator;
  const negative = basisPoints < 0n;
  const abs = negative ? -basisPoints : basisPoints;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

function displayStatus(order: OrderRecord, now: Date): OrderDisplayStatus {
  if (order.state === 'settled') return 'completed';
  return now.getTime() < order.deliverAt.getTime() ? 'in_progress' : 'ended';
}

/**
 * The reply shape of an order. `current` is the latest fresh tick of the instrument, for
 * an open order's P/L as if it were delivered now.
 */
export function orderView(
  order: OrderRecord,
  now: Date,
  lang: Language,
  current: TickRef | null,
): Order {
  const stake = order.stakeMinor;
  const profit = order.payoutMinor === null ? null : order.payoutMinor - stake - order.feeMinor;
  let currentPnl: bigint | null = profit;
  if (order.state === 'open' && current) {
    const outcome = outcomeOf(order.direction, order.openTick.priceMinor, current.priceMinor);
    currentPnl = profitOf(outcome, stake, order.feeMinor, order.payoutRatePpm);
  }
  const priceScale = INSTRUMENTS[order.instrument].priceScale;
  const quantity =
    (stake * 10n ** BigInt(QUANTITY_SCALE + priceScale)) /
    (order.openTick.priceMinor * 10n ** BigInt(USDT_SCALE));
  return {
    id: String(order.id),
    publicId: order.publicId,
    symbol: order.instrument,
    direction: order.direction,
    periodSeconds: order.periodSeconds,
    payoutRate: rateText(order.payoutRatePpm),
    feeRate: rateText(order.feeRatePpm),
    stake: usdt(stake),
    fee: usdt(order.feeMinor),
    quantity: formatFixed(quantity, QUANTITY_SCALE, QUANTITY_SCALE),
    state: order.state,
    displayStatus: displayStatus(order, now),
    outcome: order.outcome,
    openTick: tickView(order.openTick, order.instrument, lang),
    closeTick: order.closeTick ? tickView(order.closeTick, order.instrument, lang) : null,
    createdAt: order.createdAt.toISOString(),
    deliverAt: order.deliverAt.toISOString(),
    settledAt: order.settledAt ? order.settledAt.toISOString() : null,
    remainingMs: Math.max(0, order.deliverAt.getTime() - now.getTime()),
    payout: order.payoutMinor === null ? null : usdt(order.payoutMinor),
    profit: profit === null ? null : usdt(profit),
    returnRatePct: profit === null ? null : percentText(profit, stake),
    currentPnl: currentPnl === null ? null : usdt(currentPnl),
  };
}

// ---------------------------------------------------------------------------------------
// Ledger entries. Placement moves stake + fee from available to locked; settlement
// releases the lock and pays by the outcome. Each entry's reference names its order, so
// an order can be opened and settled once each.

export function placementEntry(order: {
  id: number;
  userId: number;
  stakeMinor: bigint;
  feeMinor: bigint;
}): EntrySpec {
  const account = userAccount(order.userId, 'futures', CONTRACT_ASSET);
  const amount = order.stakeMinor + order.feeMinor;
  return {
    kind: 'contract_open',
    reference: `contract:${order.id}:open`,
    userId: order.userId,
    postings: [
      { account, bucket: 'available', amount: -amount, type: 'position_margin' },
      { account, bucket: 'locked', amount, type: 'position_margin' },
    ],
  };
}

export function settlementEntry(
  order: { id: number; userId: number; stakeMinor: bigint; feeMinor: bigint },
  outcome: Outcome,
  payoutMinor: bigint,
): EntrySpec {
  const account = userAccount(order.userId, 'futures', CONTRACT_ASSET);
  const contracts = houseAccount('contracts', CONTRACT_ASSET);
  const fees = houseAccount('fees', CONTRACT_ASSET);
  const { stakeMinor: stake, feeMinor: fee } = order;
  const postings: EntrySpec['postings'] = [];
  if (outcome === 'void') {
    // No fresh price at delivery: nothing was traded, so everything goes back.
    postings.push(
      { account, bucket: 'locked', amount: -(stake + fee), type: 'order_refund' },
      { account, bucket: 'available', amount: stake + fee, type: 'order_refund' },
    );
  } else {
    if (fee > 0n)
      postings.push(
        { account, bucket: 'locked', amount: -fee, type: 'position_fee' },
        { account: fees, amount: fee, type: 'position_fee' },
      );
    if (outcome === 'win') {
      const profit = payoutMinor - stake;
      postings.push(
        { account, bucket: 'locked', amount: -stake, type: 'position_close' },
        { account, bucket: 'available', amount: payoutMinor, type: 'position_close' },
      );
      if (profit > 0n)
        postings.push({ account: contracts, amount: -profit, type: 'position_close' });
    } else if (outcome === 'loss') {
      postings.push(
        { account, bucket: 'locked', amount: -stake, type: 'position_close' },
        { account: contracts, amount: stake, type: 'position_close' },
      );
    } else {
      // A tie refunds the stake: neither side moved the price, so neither side won.
      postings.push(
        { account, bucket: 'locked', amount: -stake, type: 'order_refund' },
        { account, bucket: 'available', amount: stake, type: 'order_refund' },
      );
    }
  }
  return {
    kind: 'contract_settle',
    reference: `contract:${order.id}:settle`,
    userId: order.userId,
    postings,
  };
}

// ---------------------------------------------------------------------------------------
// Periods and settings.

export interface PeriodRow {
  id: number;
  seconds: number;
  payoutRatePpm: number;
  feeRatePpm: number;
  minStakeMinor: bigint;
  maxStakeMinor: bigint;
  active: boolean;
}

export function periodView(row: PeriodRow): Period {
  const payoutRate = rateText(row.payoutRatePpm);
  const feeRate = rateText(row.feeRatePpm);
  return {
    id: row.id,
    seconds: row.seconds,
    payoutRate,
    feeRate,
    minStake: usdt(row.minStakeMinor),
    maxStake: usdt(row.maxStakeMinor),
    breakEvenWinRatePct: breakEvenWinRatePct(payoutRate, feeRate),
  };
}

export async function activePeriods(db: Executor): Promise<PeriodRow[]> {
  return db
    .select({
      id: contractPeriods.id,
      seconds: contractPeriods.seconds,
      payoutRatePpm: contractPeriods.payoutRatePpm,
      feeRatePpm: contractPeriods.feeRatePpm,
      minStakeMinor: contractPeriods.minStakeMinor,
      maxStakeMinor: contractPeriods.maxStakeMinor,
      active: contractPeriods.active,
    })
    .from(contractPeriods)
    .where(eq(contractPeriods.active, true))
    .orderBy(asc(contractPeriods.sortOrder), asc(contractPeriods.seconds));
}

/** Losses and fees of orders settled since 00:00 UTC (a win counts its fee; its profit is not netted). */
export async function lossToday(db: Executor, userId: number, now: Date): Promise<bigint> {
  const [row] = await queryRows<{ loss: string }>(
    db,
    sql`select coalesce(sum(case when ${contractOrders.outcome} = 'win' then ${contractOrders.feeMinor}
                                 else ${contractOrders.stakeMinor} + ${contractOrders.feeMinor} - ${contractOrders.payoutMinor} end), 0)::text as loss
        from ${contractOrders}
        where ${contractOrders.userId} = ${userId} and ${contractOrders.state} = 'settled' and ${contractOrders.settledAt} >= ${utcDayStart(now)}`,
  );
  return BigInt(row?.loss ?? '0');
}

export async function contractConfig(
  db: Executor,
  now: Date,
  userId: number,
  lang: Language,
): Promise<ContractConfig> {
  const [periods, settings, loss, tradePasswordRequired, shared] = await Promise.all([
    activePeriods(db),
    db
      .select({ limit: contractSettings.dailyLossLimitMinor })
      .from(contractSettings)
      .where(eq(contractSettings.userId, userId))
      .limit(1),
    lossToday(db, userId, now),
    isMoneyPasswordSet(db, userId, 'trade'),
    readSharedSettings(db),
  ]);
  const limit = settings[0]?.limit ?? null;
  return {
    periods: periods.map(periodView),
    maxOpenOrders: shared.contractMaxOpenOrders,
    dailyLossLimit: limit === null ? null : usdt(limit),
    lossToday: usdt(loss),
    tradePasswordRequired,
    rule: translate(lang, 'contracts.rule'),
  };
}

/** Sets or removes the user's daily loss limit. Raises AMOUNT_PRECISION (field `dailyLossLimit`). */
export async function saveSettings(
  db: Executor,
  now: Date,
  userId: number,
  request: ContractSettingsRequest,
): Promise<void> {
  let limit: bigint | null = null;
  if (request.dailyLossLimit !== null) {
    const parsed = parseUsdt(request.dailyLossLimit);
    if (parsed === undefined)
      throw new AppError('AMOUNT_PRECISION', { decimals: USDT_SCALE }, 422, 'dailyLossLimit');
    limit = parsed;
  }
  await db
    .insert(contractSettings)
    .values({ userId, dailyLossLimitMinor: limit, updatedAt: now })
    .onConflictDoUpdate({
      target: contractSettings.userId,
      set: { dailyLossLimitMinor: limit, updatedAt: now },
    });
}

/** A positive USDT amount in minor units, or undefined (more than 6 decimals, zero). */
export function parseUsdt(text: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > USDT_SCALE) return undefined;
  const minor = BigInt((match[1] ?? '0') + fraction.padEnd(USDT_SCALE, '0'));
  return minor > 0n ? minor : undefined;
}

// ---------------------------------------------------------------------------------------
// Reading orders: always through the owner, except the public replay by its random id.

const openTicks = alias(ticks, 'open_tick');
const closeTicks = alias(ticks, 'close_tick');

const orderColumns = {
  order: contractOrders,
  openTs: openTicks.ts,
  openSource: openTicks.source,
  openComponents: openTicks.components,
  closeTs: closeTicks.ts,
  closeSource: closeTicks.source,
  closeComponents: closeTicks.components,
};

type OrderJoinRow = {
  order: typeof contractOrders.$inferSelect;
  openTs: Date;
  openSource: string;
  openComponents: TickComponent[] | null;
  closeTs: Date | null;
  closeSource: string | null;
  closeComponents: TickComponent[] | null;
};

function recordOf(row: OrderJoinRow): OrderRecord {
  const o = row.order;
  if (!isInstrumentSymbol(o.instrument))
    throw new Error(`order ${o.id} on unknown instrument ${o.instrument}`);
  return {
    id: o.id,
    publicId: o.publicId,
    userId: o.userId,
    instrument: o.instrument,
    direction: o.direction as Direction,
    periodSeconds: o.periodSeconds,
    payoutRatePpm: o.payoutRatePpm,
    feeRatePpm: o.feeRatePpm,
    stakeMinor: o.stakeMinor,
    feeMinor: o.feeMinor,
    openTick: {
      id: o.openTickId,
      priceMinor: o.openPriceMinor,
      ts: row.openTs,
      source: row.openSource,
      components: row.openComponents,
    },
    createdAt: o.createdAt,
    deliverAt: o.deliverAt,
    state: o.state as 'open' | 'settled',
    outcome: o.outcome as Outcome | null,
    closeTick:
      o.closeTickId !== null && o.closePriceMinor !== null && row.closeTs && row.closeSource
        ? {
            id: o.closeTickId,
            priceMinor: o.closePriceMinor,
            ts: row.closeTs,
            source: row.closeSource,
            components: row.closeComponents,
          }
        : null,
    payoutMinor: o.payoutMinor,
    settledAt: o.settledAt,
  };
}

function selectOrders(db: Executor) {
  return db
    .select(orderColumns)
    .from(contractOrders)
    .innerJoin(openTicks, eq(openTicks.id, contractOrders.openTickId))
    .leftJoin(closeTicks, eq(closeTicks.id, contractOrders.closeTickId));
}

async function currentTicks(db: Executor, now: Date): Promise<Map<InstrumentSymbol, TickRef>> {
  const prices = await latestPrices(db, now);
  return new Map([...prices].map(([symbol, price]) => [symbol, tickRefOf(price)]));
}

/** The user's orders, newest first, a page at a time (`cursor`: the last id of the previous page). */
export async function listOrders(
  db: Executor,
  now: Date,
  userId: number,
  query: OrdersQuery,
  lang: Language,
): Promise<Orders> {
  const conditions = [eq(contractOrders.userId, userId), eq(contractOrders.state, query.state)];
  if (query.symbol) conditions.push(eq(contractOrders.instrument, query.symbol));
  if (query.cursor) conditions.push(lt(contractOrders.id, Number(query.cursor)));
  const rows = await selectOrders(db)
    .where(and(...conditions))
    .orderBy(desc(contractOrders.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit).map(recordOf);
  const current =
    query.state === 'open' && page.length > 0
      ? await currentTicks(db, now)
      : new Map<InstrumentSymbol, TickRef>();
  const last = page[page.length - 1];
  return {
    items: page.map((order) => orderView(order, now, lang, current.get(order.instrument) ?? null)),
    nextCursor: rows.length > query.limit && last ? String(last.id) : null,
  };
}

/** One of the user's own orders; another user's id is ORDER_NOT_FOUND, the same as no order. */
export async function getOrder(
  db: Executor,
  now: Date,
  userId: number,
  id: number,
  lang: Language,
): Promise<Order> {
  const [row] = await selectOrders(db)
    .where(and(eq(contractOrders.id, id), eq(contractOrders.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('ORDER_NOT_FOUND', {}, 404);
  const order = recordOf(row);
  const current = order.state === 'open' ? await latestPrice(db, order.instrument, now) : null;
  return withCloseProofs(db, orderView(order, now, lang, current ? tickRefOf(current) : null));
}

/** Adds the signed updates kept with an order's close tick, for the browser to check. */
async function withCloseProofs<T extends { closeTick: OrderTick | null }>(
  db: Executor,
  view: T,
): Promise<T> {
  if (!view.closeTick) return view;
  const proofs = await tickProofs(db, Number(view.closeTick.id));
  return proofs.length === 0 ? view : { ...view, closeTick: { ...view.closeTick, proofs } };
}

/**
 * The public replay: recomputes a settled order's close tick from the recorded ticks (the
 * latest at or before delivery, if within the 5 s before it), applies the published rule
 * and compares with what was stored. Raises ORDER_NOT_FOUND, INVALID_STATE (not settled yet).
 */
export async function replayOrder(db: Executor, publicId: string, lang: Language): Promise<Replay> {
  const [row] = await selectOrders(db).where(eq(contractOrders.publicId, publicId)).limit(1);
  if (!row) throw new AppError('ORDER_NOT_FOUND', {}, 404);
  const order = recordOf(row);
  if (order.state !== 'settled' || order.outcome === null || order.payoutMinor === null)
    throw new AppError('INVALID_STATE', {}, 409);
  const close = await latestPrice(db, order.instrument, order.deliverAt);
  const outcome = outcomeOf(
    order.direction,
    order.openTick.priceMinor,
    close ? close.priceMinor : null,
  );
  const payout = payoutOf(outcome, order.stakeMinor, order.feeMinor, order.payoutRatePpm);
  const storedCloseTickId = order.closeTick ? String(order.closeTick.id) : null;
  const closeTickId = close ? String(close.tickId) : null;
  // Each tick's price recomputed from the source quotes recorded with it, by the index rule.
  const indexAgrees =
    tickIndexAgrees(order.openTick) && (close ? tickIndexAgrees(tickRefOf(close)) : true);
  return withCloseProofs(db, {
    publicId: order.publicId,
    symbol: order.instrument,
    direction: order.direction,
    stake: usdt(order.stakeMinor),
    payoutRate: rateText(order.payoutRatePpm),
    deliverAt: order.deliverAt.toISOString(),
    openTick: tickView(order.openTick, order.instrument, lang),
    closeTick: close ? tickView(tickRefOf(close), order.instrument, lang) : null,
    outcome,
    payout: usdt(payout),
    stored: {
      closeTickId: storedCloseTickId,
      outcome: order.outcome,
      payout: usdt(order.payoutMinor),
    },
    indexAgrees,
    agrees:
      storedCloseTickId === closeTickId &&
      order.outcome === outcome &&
      order.payoutMinor === payout &&
      indexAgrees,
    rule: translate(lang, 'contracts.rule'),
  });
}

/** Locked funds the ledger check expects: each user's open orders' stake + fee. */
export async function openObligations(
  db: Executor,
): Promise<{ account: string; amount: bigint }[]> {
  const rows = await queryRows<{ user_id: string; amount: string }>(
    db,
    sql`select ${contractOrders.userId}::text as user_id, sum(${contractOrders.stakeMinor} + ${contractOrders.feeMinor})::text as amount
        from ${contractOrders} where ${contractOrders.state} = 'open' group by ${contractOrders.userId}`,
  );
  return rows.map((row) => ({
    account: `user:${row.user_id}:futures:${CONTRACT_ASSET}`,
    amount: BigInt(row.amount),
  }));
}
