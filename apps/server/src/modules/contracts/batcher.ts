import {
  CONTRACT_ASSET,
  type PlaceOrderRequest,
  type PlaceOrderResponse,
  type UserEvent,
} from '@tradewind/contract/instant';
import type { Language } from '@tradewind/contract/languages';
import {
  INSTRUMENTS,
  type InstrumentSymbol,
  PRICE_MAX_AGE_MS,
  instrumentOf,
  isInstrumentSymbol,
} from '@tradewind/contract/market';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { feeOf } from '@tradewind/contract/payout';
import type { AssetCode } from '@tradewind/contract/wallet';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import {
  type Db,
  type Executor,
  type NamedStatement,
  type PipelinedWork,
  pipelinedTransaction,
  runNamed,
} from '#platform/db.ts';
import { parseSharedSettings } from '#platform/config.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import {
  type BatchKey,
  KeyTakenError,
  type StoredKeyRow,
  insertKeysText,
  insertKeysValues,
  storedKeysFrom,
} from '#platform/idempotency.ts';
import type { Hub } from '#platform/ws.ts';
import {
  type AccountBalance,
  type Ledger,
  type UserBalanceRow,
  accountName,
  balancesByUser,
  userAccount,
} from '../ledger/service.ts';
import type { RecordedPrice } from '../market/service.ts';
import { kycRefusal } from '../kyc/service.ts';
import { moneyPasswordNotSet } from '../money-password/service.ts';
import { balancesView } from '../wallet/service.ts';
import {
  type OrderRecord,
  type PeriodRow,
  newPublicId,
  orderView,
  placementEntry,
  tickRefOf,
  utcDayStart,
} from './service.ts';

/**
 * Placing orders with group commit (ARCHITECTURE §9). One transaction per order caps
 * throughput at the database's transaction rate, so requests wait here for a millisecond
 * or until 64 have arrived, and each batch runs as ONE transaction: it looks up every
 * Idempotency-Key (replays answer from the stored reply), locks the users' futures
 * accounts in account-id order, checks each order against the balance and limits in memory
 * (so a refused order is refused alone and never aborts the others), writes the accepted
 * orders in bulk with each accepted request's key and reply, then their ledger entries,
 * commits, and answers every request with its own result. If the transaction itself fails,
 * its requests are retried one by one, so one bad request cannot fail the rest.
 *
 * Errors a request can get: IDEMPOTENCY_KEY_REUSED, TRADE_PASSWORD_REQUIRED, ACCOUNT_FROZEN,
 * KYC_REQUIRED, TRADE_PASSWORD_NOT_SET,
 * INSTRUMENT_NOT_TRADABLE, PERIOD_UNKNOWN, STAKE_OUT_OF_RANGE, PRICE_UNAVAILABLE,
 * OPEN_ORDER_LIMIT, DAILY_LOSS_LIMIT, INSUFFICIENT_BALANCE.
 */

export interface PlaceRequest {
  userId: number;
  key: string;
  hash: string;
  body: PlaceOrderRequest;
  /** The stake in USDT minor units, parsed (and its precision checked) before queueing. */
  stakeMinor: bigint;
  lang: Language;
  /** The HTTP request's id: the `order.placed` event names it, so a trace follows one order from request to socket. */
  requestId?: string;
}

export interface PlacementDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  hub: Hub;
  /** Whether orders may be placed on the instrument here (the market module decides: real feeds only, outside demo mode). */
  isTradable: (symbol: InstrumentSymbol) => boolean;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Told the delivery instant of every order placed by this process (the settlement timer). */
  onPlaced?: (deliverAt: Date) => void;
}

export interface BatcherOptions {
  /** A batch closes when this many requests wait… */
  maxBatch: number;
  /** …or this long after the first of them arrived. */
  windowMs: number;
  /** Batches running at once (each holds one connection). */
  maxInFlight: number;
  /** Requests waiting beyond this are refused at once (UNAVAILABLE): the queue has a limit. */
  maxQueue: number;
}

const MAX_ATTEMPTS = 3;
const DEFAULT_OPTIONS: BatcherOptions = {
  maxBatch: 64,
  windowMs: 1,
  maxInFlight: 2,
  maxQueue: 10_000,
};

type Result = { ok: PlaceOrderResponse; placed?: OrderRecord } | { error: AppError };

interface Pending {
  request: PlaceRequest;
  resolve: (response: PlaceOrderResponse) => void;
  reject: (error: unknown) => void;
}

export class OrderBatcher {
  private readonly options: BatcherOptions;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private idle: (() => void)[] = [];
  /** What group commit achieved: transactions run and requests answered by them (tests and the benchmark read it). */
  readonly stats = { batches: 0, requests: 0, retriedAlone: 0, keyTaken: 0 };

  constructor(
    private readonly deps: PlacementDeps,
    options: Partial<BatcherOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Queues one order; resolves with its own reply, or rejects with its own AppError. */
  submit(request: PlaceRequest): Promise<PlaceOrderResponse> {
    if (this.queue.length >= this.options.maxQueue)
      return Promise.reject(new AppError('UNAVAILABLE'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (this.queue.length >= this.options.maxBatch) this.flush();
      else
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.flush();
        }, this.options.windowMs);
    });
  }

  /** Resolves when nothing is queued or running (the app's close waits for it before the database closes). */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      // A key repeated inside one batch waits for the next: by then the first has committed, and it replays.
      const batch: Pending[] = [];
      const later: Pending[] = [];
      const keys = new Set<string>();
      for (const pending of this.queue) {
        const id = `${pending.request.userId}\u0000${pending.request.key}`;
        if (batch.length < this.options.maxBatch && !keys.has(id)) {
          keys.add(id);
          batch.push(pending);
        } else {
          later.push(pending);
        }
      }
      this.queue = later;
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        if (this.queue.length > 0) this.flush();
        else if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private async run(batch: Pending[], attempt = 1): Promise<void> {
    let results: Result[];
    let now: Date;
    try {
      now = this.deps.clock.now();
      results = await pipelinedTransaction(this.deps.db, (tx) =>
        placeBatch(
          this.deps,
          tx,
          now,
          batch.map((p) => p.request),
        ),
      );
      this.stats.batches += 1;
      this.stats.requests += batch.length;
    } catch (error) {
      // A concurrent duplicate took a key after we looked (rare): run again, and the key replays.
      const keyTaken = error instanceof KeyTakenError;
      if (keyTaken) this.stats.keyTaken += 1;
      if (batch.length === 1) {
        if (keyTaken && attempt < MAX_ATTEMPTS) return this.run(batch, attempt + 1);
        batch[0]?.reject(error);
        return;
      }
      // Otherwise one request broke the transaction: each runs alone, so it fails alone.
      if (!keyTaken) {
        this.deps.log?.error(
          { err: error, size: batch.length },
          'contracts: an order batch failed; retrying its requests one by one',
        );
        this.stats.retriedAlone += batch.length;
      }
      await Promise.all(batch.map((pending) => this.run([pending])));
      return;
    }
    const changed = new Set<number>();
    batch.forEach((pending, i) => {
      const result = results[i] as Result;
      if ('error' in result) return pending.reject(result.error);
      pending.resolve(result.ok);
      if (result.placed) {
        changed.add(result.placed.userId);
        this.publish(result.placed.userId, {
          type: 'order.placed',
          order: result.ok.order,
          ...(pending.request.requestId ? { requestId: pending.request.requestId } : {}),
        });
        this.deps.onPlaced?.(result.placed.deliverAt);
      }
    });
    for (const userId of changed) this.publish(userId, { type: 'balance.changed' });
  }

  private publish(userId: number, event: UserEvent): void {
    this.deps.hub.publishToUser(userId, event);
  }
}

// A batch is one transaction of seven statements in two round trips on PostgreSQL
// (ARCHITECTURE §9, `pipelinedTransaction`): BEGIN, what is read before the lock, the lock
// and what is read after it go out together; then the orders with their keys, their ledger
// entries and postings, and COMMIT. Each read gathers in one statement what several modules
// own. On a busy machine each round trip waits for a core, so their number, not the
// statements' own work, is what a batch's time follows.

/**
 * Before the lock, for the batch's users `$1` and instruments `$2` at `$3`: who has a trade
 * password, who has passed KYC, who is frozen, the instruments operators have closed (console, issue 7), the
 * install's open-order limit if set (shared_settings; null: the default), the periods, and each instrument's open tick (its latest at or before `$3`, if at most `$4` s
 * old). It also takes `$5` order ids from the orders' sequence, so replies can be written
 * before the orders are (ids a refused or replayed request took are skipped, as after a rollback).
 */
const BEFORE_LOCK: NamedStatement = {
  name: 'contracts_batch_before_lock',
  text: `select
           array(select nextval('contract_orders_id_seq')::text from generate_series(1, $5::int4)) as order_ids,
           array(select user_id::text from money_passwords where user_id = any($1::bigint[]) and kind = 'trade' and password_hash is not null) as with_password,
           array(select id::text from users where id = any($1::bigint[]) and verified) as verified,
           array(select id::text from users where id = any($1::bigint[]) and frozen_at is not null) as frozen,
           array(select symbol from market_instruments where not tradable) as closed,
           (select value from shared_settings where name = 'CONTRACT_MAX_OPEN_ORDERS') as max_open_orders,
           (select coalesce(json_agg(p), '[]') from (
              select id, seconds, payout_rate_ppm, fee_rate_ppm, min_stake_minor::text, max_stake_minor::text, active from contract_periods) p) as periods,
           (select coalesce(json_agg(t), '[]') from (
              select t.id::text, t.instrument, t.price_minor::text, (extract(epoch from t.ts) * 1000)::float8 as ts_ms, t.source
              from unnest($2::text[]) as i(instrument)
              cross join lateral (
                select id, instrument, price_minor, ts, source from market_ticks
                where instrument = i.instrument and ts <= $3::timestamptz and ts >= $3::timestamptz - make_interval(secs => $4::int4)
                order by ts desc limit 1
              ) t) t) as ticks`,
};

/**
 * After the lock: the stored Idempotency-Keys `($1, $2)`; per user of `$3`, open orders and
 * their stake + fee, the daily loss limit, and losses and fees settled since `$4`; and the
 * users' balances, for the replies.
 *
 * Planned for each run: idempotency_keys grows by a row with every request, and a generic
 * plan made while it was small keeps scanning all of it as it grows, until an ANALYZE (on a
 * new database this read became most of bench/orders' p99; docs/performance-history.md).
 */
const AFTER_LOCK: NamedStatement = {
  name: 'contracts_batch_after_lock',
  planEachRun: true,
  text: `select
           (select coalesce(json_agg(k), '[]') from (
              select k.user_id::text, k.key, k.request_hash, k.response, (extract(epoch from k.created_at) * 1000)::float8 as created_ms
              from idempotency_keys k join unnest($1::bigint[], $2::text[]) as w(user_id, key) on k.user_id = w.user_id and k.key = w.key) k) as keys,
           (select coalesce(json_agg(s), '[]') from (
              select u.id::text as user_id, coalesce(o.count, 0)::int4 as open_count, coalesce(o.exposure, 0)::text as open_exposure,
                     s.daily_loss_limit_minor::text as loss_limit,
                     case when s.daily_loss_limit_minor is null then '0' else (
                       select coalesce(sum(case when c.outcome = 'win' then c.fee_minor else c.stake_minor + c.fee_minor - c.payout_minor end), 0)::text
                       from contract_orders c where c.user_id = u.id and c.state = 'settled' and c.settled_at >= $4::timestamptz) end as loss_today
              from unnest($3::bigint[]) as u(id)
              left join contract_settings s on s.user_id = u.id
              left join lateral (select count(*) as count, sum(c.stake_minor + c.fee_minor) as exposure
                                 from contract_orders c where c.user_id = u.id and c.state = 'open') o on true) s) as users,
           (select coalesce(json_agg(b), '[]') from (
              select user_id::text, wallet, asset, available::text, locked::text from ledger_accounts
              where kind = 'user' and user_id = any($3::bigint[])) b) as balances`,
};

/**
 * The accepted orders, with the ids `BEFORE_LOCK` took, and their requests' keys with the
 * replies (`insertKeysText`). A key taken meanwhile (a concurrent duplicate committed it
 * after `AFTER_LOCK` read) fails the statement as a unique violation: COMMIT is already
 * on its way behind it, so the refusal has to be the statement's own.
 */
const INSERT_ORDERS_AND_KEYS: NamedStatement = {
  name: 'contracts_insert_orders_and_keys',
  text: `with o as (
           insert into contract_orders (id, public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm,
                                        stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
           overriding system value
           select id, public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm,
                  stake_minor, fee_minor, open_tick_id, open_price_minor, $13::timestamptz, $13::timestamptz + make_interval(secs => period_seconds)
           from unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::int4[], $7::int4[], $8::int4[], $9::numeric[], $10::numeric[], $11::bigint[], $12::numeric[])
             as o(id, public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor)
           returning 1
         ), k as (${insertKeysText(14)})
         select (select count(*) from o)::int4 as orders, (select count(*) from k)::int4 as keys`,
};

type TickRow = {
  id: string;
  instrument: string;
  price_minor: string;
  ts_ms: number;
  source: string;
};

function pricesFrom(rows: TickRow[]): Map<InstrumentSymbol, RecordedPrice> {
  const out = new Map<InstrumentSymbol, RecordedPrice>();
  for (const row of rows) {
    if (!isInstrumentSymbol(row.instrument)) continue;
    out.set(row.instrument, {
      tickId: Number(row.id),
      instrument: row.instrument,
      priceMinor: BigInt(row.price_minor),
      priceScale: INSTRUMENTS[row.instrument].priceScale,
      ts: new Date(Math.round(row.ts_ms)),
      source: row.source,
    });
  }
  return out;
}

interface UserState {
  openCount: number;
  exposure: bigint;
  lossLimit: bigint | null;
  lossToday: bigint;
  available: bigint;
  locked: bigint;
}

/** A price in USDT for the wallet's valuation: USDT is 1, a coin its fresh recorded price, anything else unpriced. */
function priceOfFrom(prices: Map<InstrumentSymbol, { priceMinor: bigint; priceScale: number }>) {
  // Asked for every asset of every reply in the batch: each price is formatted once.
  const formatted = new Map<AssetCode, string | null>();
  return (asset: AssetCode): string | null => {
    if (asset === 'USDT') return '1';
    let text = formatted.get(asset);
    if (text === undefined) {
      const instrument = instrumentOf(asset);
      const price = instrument ? prices.get(instrument) : undefined;
      text = price ? formatAmount(price.priceMinor, price.priceScale) : null;
      formatted.set(asset, text);
    }
    return text;
  };
}

/** What one fresh request's order is checked against, read under its user's lock. */
interface OrderFacts {
  symbol: InstrumentSymbol;
  frozen: boolean;
  /** KYC passed (`users.verified`). */
  verified: boolean;
  tradePasswordSet: boolean;
  /** Closed by operators (console). */
  closed: boolean;
  period: PeriodRow | undefined;
  /** The period's terms as the user was shown them, if the request carried them. */
  terms: PlaceOrderRequest['terms'];
  /** The instrument's latest recorded tick, if fresh enough (PRICE_MAX_AGE_MS). */
  price: RecordedPrice | undefined;
  stake: bigint;
  /** Stake + fee: what placing the order locks. */
  cost: bigint;
  /** With the batch's earlier orders of the same user already counted. */
  user: UserState;
}

/** The business checks of a new order, in order (`place-order.ts` has the whole list): its refusal, or null. */
function orderRefusal(
  deps: Pick<PlacementDeps, 'isTradable'> & { maxOpenOrders: number },
  facts: OrderFacts,
): AppError | null {
  const { symbol, period, user, cost } = facts;
  if (facts.frozen) return new AppError('ACCOUNT_FROZEN', {}, 403);
  // Spec §5: identity verified, and a trading password set before the first order.
  const kyc = kycRefusal({ verified: facts.verified });
  if (kyc) return kyc;
  if (!facts.tradePasswordSet) return moneyPasswordNotSet('trade');
  if (!deps.isTradable(symbol) || facts.closed)
    return new AppError('INSTRUMENT_NOT_TRADABLE', { symbol }, 409);
  if (!period?.active) return new AppError('PERIOD_UNKNOWN', {}, 422);
  // The terms the user saw, or none placed: an operator's change since is never applied silently.
  if (
    facts.terms &&
    (parseAmount(facts.terms.payoutRate, 6) !== BigInt(period.payoutRatePpm) ||
      parseAmount(facts.terms.feeRate, 6) !== BigInt(period.feeRatePpm))
  ) {
    return new AppError('CONTRACT_TERMS_CHANGED', {}, 409);
  }
  if (facts.stake < period.minStakeMinor || facts.stake > period.maxStakeMinor) {
    return new AppError(
      'STAKE_OUT_OF_RANGE',
      { min: formatAmount(period.minStakeMinor, 6), max: formatAmount(period.maxStakeMinor, 6) },
      422,
    );
  }
  if (!facts.price) return new AppError('PRICE_UNAVAILABLE', { asset: symbol }, 409);
  if (user.openCount >= deps.maxOpenOrders)
    return new AppError('OPEN_ORDER_LIMIT', { max: deps.maxOpenOrders }, 409);
  // Worst case: every open order and this one lost, on top of today's realised losses and fees.
  if (user.lossLimit !== null && user.lossToday + user.exposure + cost > user.lossLimit)
    return new AppError('DAILY_LOSS_LIMIT', { limit: formatAmount(user.lossLimit, 6) }, 409);
  if (user.available < cost) return new AppError('INSUFFICIENT_BALANCE');
  return null;
}

/**
 * One batch, inside its transaction: returns each request's result, in order. Refusals
 * are results, not exceptions; an exception means the whole transaction failed.
 */
export async function placeBatch(
  deps: PlacementDeps,
  tx: Executor,
  now: Date,
  requests: PlaceRequest[],
): Promise<PipelinedWork<Result[]>> {
  type PeriodDbRow = {
    id: number;
    seconds: number;
    payout_rate_ppm: number;
    fee_rate_ppm: number;
    min_stake_minor: string;
    max_stake_minor: string;
    active: boolean;
  };
  type StateDbRow = {
    user_id: string;
    open_count: number;
    open_exposure: string;
    loss_limit: string | null;
    loss_today: string;
  };
  type BeforeLockRow = {
    order_ids: string[];
    with_password: string[];
    verified: string[];
    frozen: string[];
    closed: string[];
    max_open_orders: string | null;
    periods: PeriodDbRow[];
    ticks: TickRow[];
  };
  type AfterLockRow = { keys: StoredKeyRow[]; users: StateDbRow[]; balances: UserBalanceRow[] };
  const results: (Result | undefined)[] = new Array(requests.length);
  const userIds = [...new Set(requests.map((r) => r.userId))];
  const symbols = [...new Set(requests.map((r) => r.body.symbol))];
  // The three statements go out together; each runs when the one before it has. Keys, open
  // orders and balances are read after the lock (a statement of its own, so its snapshot is
  // taken once the lock is held). An order is only ever accepted under its user's lock, so a
  // concurrent batch with the same user (and perhaps the same key) has committed by then: its
  // key replays here, and its orders count against the limits.
  const [[before], accounts, [after]] = await Promise.all([
    runNamed<BeforeLockRow>(tx, BEFORE_LOCK, [
      userIds.map(String),
      symbols,
      now,
      PRICE_MAX_AGE_MS / 1000,
      requests.length,
    ]),
    deps.ledger.lockAccounts(
      tx,
      userIds.map((userId) => userAccount(userId, 'futures', CONTRACT_ASSET)),
    ),
    runNamed<AfterLockRow>(tx, AFTER_LOCK, [
      requests.map((r) => String(r.userId)),
      requests.map((r) => r.key),
      userIds.map(String),
      utcDayStart(now),
    ]),
  ]);
  if (!before || !after) throw new Error('contracts: the batch read no row');
  const orderIds = before.order_ids.map(Number);
  const withPassword = new Set(before.with_password.map(Number));
  const verified = new Set(before.verified.map(Number));
  const frozen = new Set(before.frozen.map(Number));
  const closed = new Set(before.closed);
  // Read with the batch, so every node applies the install's one value (modules/settings).
  const maxOpenOrders = parseSharedSettings(
    before.max_open_orders === null ? {} : { CONTRACT_MAX_OPEN_ORDERS: before.max_open_orders },
  ).contractMaxOpenOrders;
  const prices = pricesFrom(before.ticks);
  // A key stored 24 hours ago or more has expired: its request is new (platform/idempotency.ts).
  const stored = storedKeysFrom(requests, after.keys, now);
  const fresh: number[] = [];
  requests.forEach((request, i) => {
    const key = stored[i];
    if (!key || key.kind === 'reused')
      results[i] = { error: new AppError('IDEMPOTENCY_KEY_REUSED', {}, 409) };
    else if (withPassword.has(request.userId) && request.body.tradePassword === undefined)
      results[i] = { error: new AppError('TRADE_PASSWORD_REQUIRED', {}, 403) };
    else if (key.kind === 'replay') results[i] = { ok: key.response as PlaceOrderResponse };
    else fresh.push(i);
  });

  const accepted: {
    index: number;
    order: OrderRecord;
    after: { available: bigint; locked: bigint };
  }[] = [];
  let writes: Promise<unknown> = Promise.resolve();
  if (fresh.length > 0) {
    const periods = new Map<number, PeriodRow>(
      before.periods.map((p) => [
        p.id,
        {
          id: p.id,
          seconds: p.seconds,
          payoutRatePpm: p.payout_rate_ppm,
          feeRatePpm: p.fee_rate_ppm,
          minStakeMinor: BigInt(p.min_stake_minor),
          maxStakeMinor: BigInt(p.max_stake_minor),
          active: p.active,
        },
      ]),
    );
    const users = new Map<number, UserState>();
    for (const row of after.users) {
      const userId = Number(row.user_id);
      const account = accounts.get(accountName(userAccount(userId, 'futures', CONTRACT_ASSET)));
      users.set(userId, {
        openCount: row.open_count,
        exposure: BigInt(row.open_exposure),
        lossLimit: row.loss_limit === null ? null : BigInt(row.loss_limit),
        lossToday: BigInt(row.loss_today),
        available: account?.available ?? 0n,
        locked: account?.locked ?? 0n,
      });
    }

    for (const i of fresh) {
      const request = requests[i] as PlaceRequest;
      const body = request.body;
      const symbol = body.symbol as InstrumentSymbol;
      const user = users.get(request.userId) as UserState;
      const period = periods.get(body.periodId);
      const price = prices.get(symbol);
      const stake = request.stakeMinor;
      const fee = period ? feeOf(stake, period.feeRatePpm) : 0n;
      const cost = stake + fee;
      const refusal = orderRefusal(
        { isTradable: deps.isTradable, maxOpenOrders },
        {
          symbol,
          frozen: frozen.has(request.userId),
          verified: verified.has(request.userId),
          tradePasswordSet: withPassword.has(request.userId),
          closed: closed.has(symbol),
          period,
          terms: request.body.terms,
          price,
          stake,
          cost,
          user,
        },
      );
      if (refusal || !period || !price) {
        results[i] = { error: refusal ?? new AppError('INTERNAL') };
        continue;
      }
      user.openCount += 1;
      user.exposure += cost;
      user.available -= cost;
      user.locked += cost;
      accepted.push({
        index: i,
        after: { available: user.available, locked: user.locked },
        order: {
          id: orderIds[i] as number,
          publicId: newPublicId(),
          userId: request.userId,
          instrument: symbol,
          direction: body.direction,
          periodSeconds: period.seconds,
          payoutRatePpm: period.payoutRatePpm,
          feeRatePpm: period.feeRatePpm,
          stakeMinor: stake,
          feeMinor: fee,
          openTick: tickRefOf(price),
          createdAt: now,
          deliverAt: new Date(now.getTime() + period.seconds * 1000),
          state: 'open',
          outcome: null,
          closeTick: null,
          payoutMinor: null,
          settledAt: null,
        },
      });
    }

    if (accepted.length > 0) {
      const balances = balancesByUser(userIds, after.balances);
      const priceOf = priceOfFrom(prices);
      const keys: (BatchKey & { response: unknown })[] = [];
      for (const { index, order, after: balance } of accepted) {
        const request = requests[index] as PlaceRequest;
        // The futures balance right after this order (a user's later orders in the batch are not in it yet).
        const rows: AccountBalance[] = (balances.get(order.userId) ?? []).filter(
          (b) => !(b.wallet === 'futures' && b.asset === CONTRACT_ASSET),
        );
        rows.push({
          wallet: 'futures',
          asset: CONTRACT_ASSET,
          available: balance.available,
          locked: balance.locked,
        });
        const response: PlaceOrderResponse = {
          order: orderView(order, now, request.lang, order.openTick),
          balances: balancesView(rows, priceOf),
        };
        results[index] = { ok: response, placed: order };
        keys.push({ userId: request.userId, key: request.key, hash: request.hash, response });
      }
      const orders = accepted.map((a) => a.order);
      const entries = orders.map(placementEntry);
      // Resolved before the writes go out (the accounts are known by now: no round trip), so
      // both statements are written before this returns, and COMMIT behind them.
      const ids = await deps.ledger.resolveAccounts(
        tx,
        entries.flatMap((entry) => entry.postings.map((p) => p.account)),
      );
      const ordersAndKeys = runNamed<{ orders: number; keys: number }>(tx, INSERT_ORDERS_AND_KEYS, [
        orders.map((o) => String(o.id)),
        orders.map((o) => o.publicId),
        orders.map((o) => String(o.userId)),
        orders.map((o) => o.instrument),
        orders.map((o) => o.direction),
        orders.map((o) => o.periodSeconds),
        orders.map((o) => o.payoutRatePpm),
        orders.map((o) => o.feeRatePpm),
        orders.map((o) => o.stakeMinor.toString()),
        orders.map((o) => o.feeMinor.toString()),
        orders.map((o) => String(o.openTick.id)),
        orders.map((o) => o.openTick.priceMinor.toString()),
        now,
        ...insertKeysValues(now, keys),
      ]).catch((error: unknown) => {
        // A key taken meanwhile (a concurrent duplicate): the batch rolls back and its requests replay.
        throw isUniqueViolation(error, 'idempotency_keys_user_id_key_pk')
          ? new KeyTakenError()
          : error;
      });
      writes = Promise.all([ordersAndKeys, deps.ledger.postManyResolved(tx, now, entries, ids)]);
    }
  }
  return { value: results.map((result) => result ?? { error: new AppError('INTERNAL') }), writes };
}
