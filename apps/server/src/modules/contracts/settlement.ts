import {
  CONTRACT_ASSET,
  type Direction,
  type Order,
  type Outcome,
  outcomeOf,
} from '@tradewind/contract/instant';
import { INSTRUMENTS, type InstrumentSymbol, isInstrumentSymbol } from '@tradewind/contract/market';
import { formatAmount } from '@tradewind/contract/money';
import { payoutOf } from '@tradewind/contract/payout';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import { type Db, type NamedStatement, type Tx, runNamed } from '#platform/db.ts';
import type { Metrics } from '#platform/metrics.ts';
import type { Hub } from '#platform/ws.ts';
import {
  type EntrySpec,
  type Ledger,
  MAX_ENTRIES_PER_BATCH,
  accountName,
  houseAccount,
  userAccount,
} from '../ledger/service.ts';
import {
  type CreatedMessage,
  type MessageSpec,
  languageOf,
  publishMessages,
  renderMessage,
} from '../messages/service.ts';
import { type OrderRecord, orderView, settlementEntry } from './service.ts';

/**
 * The settlement worker (ARCHITECTURE §6). Due orders are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of workers, in any number of processes, can run:
 * each order is settled by exactly one of them, once (the state check in the claim, the
 * database's guard on settled orders, and the unique ledger reference `contract:<id>:settle`).
 * A batch settles in one transaction of three statements: the claim; then, once the rule
 * (`@tradewind/contract/payout`) has been applied here, the orders' results with each owner's
 * "contract settled" message; then one ledger entry per order, through the ledger's set-based
 * `postManyResolved`; commit; then the owners hear "settlement at expiry completed" on their
 * channel. An order's `settled_at` is when its result was written (after the claim), which is
 * what bench/settlement measures its lag to.
 *
 * The close tick is the latest recorded tick at or before delivery, if it is at most 5 s
 * older than delivery; otherwise the order is void and refunded. An order is claimed once
 * its delivery second has been recorded (ticks are stamped with the whole second and may
 * land a few milliseconds after it), or once RECORDING_LATENESS_MS has passed without it:
 * so a tick stamped at or before delivery cannot arrive after the order settled, and the
 * public replay always finds the same close tick.
 */

export const RECORDING_LATENESS_MS = 1_000;
/** How often a worker looks for orders placed by other processes (its own placements wake it directly). */
export const SWEEP_INTERVAL_MS = 1_000;
/** How soon to look again when due orders wait for their delivery second to be recorded. */
const NOT_READY_RETRY_MS = 20;
/** How often a settlement transaction with nothing to claim looks again while another is settling a batch. */
const OVERLAP_POLL_MS = 5;
/**
 * Orders per settlement transaction at most: as many as one `postMany` takes. Per-batch costs
 * (the claim, the statements, the commit) dominate small batches, so a burst settles sooner
 * in few large batches (the measurements are in docs/performance-history.md).
 */
export const DEFAULT_SETTLEMENT_BATCH = MAX_ENTRIES_PER_BATCH;
/** Settlement transactions one worker runs at once. */
export const DEFAULT_PARALLELISM = 2;
const SET_ASIDE_MS = 60_000;

export interface SettlementDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  hub: Hub;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  metrics?: Pick<Metrics, 'ordersSettled' | 'ordersVoided' | 'settlementLag'>;
}

const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

const CLAIM_DUE: NamedStatement = {
  name: 'contracts_claim_due',
  planEachRun: true,
  text: `with due as (
           select o.id from contract_orders o
           where o.state = 'open' and o.deliver_at <= $1::timestamptz and not (o.id = any($4::bigint[]))
             and (o.deliver_at <= $3::timestamptz
                  or exists (select 1 from market_ticks t
                             where t.instrument = o.instrument and t.ts >= date_trunc('second', o.deliver_at) and t.ts <= $1::timestamptz))
           order by o.deliver_at
           limit $2::int4
           for update of o skip locked
         )
         select o.id::text, o.public_id, o.user_id::text, o.instrument, o.direction, o.period_seconds, o.payout_rate_ppm, o.fee_rate_ppm,
                o.stake_minor::text, o.fee_minor::text, o.open_tick_id::text, o.open_price_minor::text,
                ${epochMs('o.created_at')} as created_ms, ${epochMs('o.deliver_at')} as deliver_ms,
                ${epochMs('ot.ts')} as open_ts_ms, ot.source as open_source,
                ct.id::text as close_tick_id, ct.price_minor::text as close_price_minor, ${epochMs('ct.ts')} as close_ts_ms, ct.source as close_source,
                u.language, a.id::text as account_id
         from due
         join contract_orders o on o.id = due.id
         join users u on u.id = o.user_id
         join market_ticks ot on ot.id = o.open_tick_id
         left join ledger_accounts a on a.name = 'user:' || o.user_id || ':futures:' || $5::text
         left join lateral (
           select t.id, t.price_minor, t.ts, t.source from market_ticks t
           where t.instrument = o.instrument and t.ts <= o.deliver_at and t.ts >= o.deliver_at - interval '5 seconds'
           order by t.ts desc limit 1
         ) ct on true
         order by o.deliver_at, o.id`,
};

/**
 * The orders' side of a batch, after the rule has been applied to the claimed orders: their
 * results and each owner's "contract settled" message, in one statement. Its ledger entries go
 * through the ledger (`postManyResolved`), in the same transaction, right after.
 */
const SETTLE_ORDERS: NamedStatement = {
  name: 'contracts_settle_orders',
  planEachRun: true,
  text: `with s as (
           select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::numeric[], $5::numeric[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
             as s(id, outcome, close_tick_id, close_price_minor, payout_minor, ref, link, language, title, body)
         ),
         settled as (
           update contract_orders o
           set state = 'settled', outcome = s.outcome, close_tick_id = s.close_tick_id, close_price_minor = s.close_price_minor,
               payout_minor = s.payout_minor, settled_at = $11::timestamptz
           from s
           where o.id = s.id and o.state = 'open'
           returning o.id, o.user_id, s.ref, s.link, s.language, s.title, s.body
         ),
         messages as (
           insert into user_messages (user_id, kind, ref, language, title, body, link, created_at)
           select user_id, $12::text, ref, language, title, body, link, $11::timestamptz
           from settled order by id
           returning id, ref
         )
         select (select count(*) from settled)::int as settled,
                (select coalesce(json_agg(json_build_array(id::text, ref)), '[]') from messages) as messages`,
};

/** Open orders more than $2 s past delivery, and how far past the oldest open order is (s). */
const OVERDUE: NamedStatement = {
  name: 'contracts_overdue',
  text: `select count(*) filter (where deliver_at < $1::timestamptz - make_interval(secs => $2))::int as overdue,
                greatest(0, extract(epoch from ($1::timestamptz - min(deliver_at))))::float8 as oldest_s
           from contract_orders where state = 'open' and deliver_at <= $1::timestamptz`,
};

/** The most settlement lags kept for the in-process p99 (a minute of a busy worker). */
const MAX_RECENT_LAGS = 100_000;

const NEXT_DUE: NamedStatement = {
  name: 'contracts_next_due',
  text: `select ${epochMs('min(deliver_at)')} as next_ms from contract_orders where state = 'open'`,
};

interface ClaimRow {
  id: string;
  public_id: string;
  user_id: string;
  instrument: string;
  direction: string;
  period_seconds: number;
  payout_rate_ppm: number;
  fee_rate_ppm: number;
  stake_minor: string;
  fee_minor: string;
  open_tick_id: string;
  open_price_minor: string;
  created_ms: number;
  deliver_ms: number;
  open_ts_ms: number;
  open_source: string;
  close_tick_id: string | null;
  close_price_minor: string | null;
  close_ts_ms: number | null;
  close_source: string | null;
  language: string;
  /** The owner's futures account, where the order's stake is locked. */
  account_id: string | null;
}

interface BatchResult {
  settled: number;
  /** [message id, ref] */
  messages: [string, string][];
}

const dateOf = (ms: number) => new Date(Math.round(ms));

/** A claimed order, settled by the rule on its recorded ticks. */
function settle(row: ClaimRow, now: Date): OrderRecord {
  if (!isInstrumentSymbol(row.instrument))
    throw new Error(`order ${row.id} on unknown instrument ${row.instrument}`);
  const direction = row.direction as Direction;
  const stakeMinor = BigInt(row.stake_minor);
  const feeMinor = BigInt(row.fee_minor);
  const openPrice = BigInt(row.open_price_minor);
  const closeTick =
    row.close_tick_id !== null &&
    row.close_price_minor !== null &&
    row.close_ts_ms !== null &&
    row.close_source !== null
      ? {
          id: Number(row.close_tick_id),
          priceMinor: BigInt(row.close_price_minor),
          ts: dateOf(row.close_ts_ms),
          source: row.close_source,
        }
      : null;
  const outcome = outcomeOf(direction, openPrice, closeTick ? closeTick.priceMinor : null);
  return {
    id: Number(row.id),
    publicId: row.public_id,
    userId: Number(row.user_id),
    instrument: row.instrument as InstrumentSymbol,
    direction,
    periodSeconds: row.period_seconds,
    payoutRatePpm: row.payout_rate_ppm,
    feeRatePpm: row.fee_rate_ppm,
    stakeMinor,
    feeMinor,
    openTick: {
      id: Number(row.open_tick_id),
      priceMinor: openPrice,
      ts: dateOf(row.open_ts_ms),
      source: row.open_source,
    },
    createdAt: dateOf(row.created_ms),
    deliverAt: dateOf(row.deliver_ms),
    state: 'settled',
    outcome,
    closeTick,
    payoutMinor: payoutOf(outcome, stakeMinor, feeMinor, row.payout_rate_ppm),
    settledAt: now,
  };
}

/** "Contract settled", for the owner of a settled order. */
function settledMessage(order: OrderRecord): MessageSpec {
  const instrument = INSTRUMENTS[order.instrument];
  return {
    userId: order.userId,
    kind: 'contract.settled',
    ref: `contract:${order.id}`,
    params: {
      symbol: `${instrument.base}/${instrument.quote}`,
      payout: formatAmount(order.payoutMinor ?? 0n, 6),
    },
    keyParams: {
      direction: `messages.direction.${order.direction}`,
      outcome: `messages.outcome.${order.outcome}`,
    },
    link: `/ContractDetail?id=${order.id}`,
  };
}

/** A settled order's ledger entry, by the rule. */
const settlementEntryOf = (order: OrderRecord): EntrySpec =>
  settlementEntry(order, order.outcome as Outcome, order.payoutMinor as bigint);

const FEES = houseAccount('fees', CONTRACT_ASSET);
const CONTRACTS = houseAccount('contracts', CONTRACT_ASSET);

export class Settlement {
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private current: Promise<void> | null = null;
  private readonly batchSize: number;
  private readonly parallelism: number;
  private readonly setAside = new Map<number, number>();
  /** The round's transactions now claiming or settling a batch. */
  private inBatch = 0;
  /** Lags (ms) of the orders this process settled in the last minute, with when (ms); capped. */
  private recent: { atMs: number; lagMs: number }[] = [];

  constructor(
    private readonly deps: SettlementDeps,
    options: { batchSize?: number; parallelism?: number } = {},
  ) {
    this.batchSize = options.batchSize ?? DEFAULT_SETTLEMENT_BATCH;
    this.parallelism = options.parallelism ?? DEFAULT_PARALLELISM;
  }

  /**
   * Settles every order that is due and ready at the clock's now, a batch per
   * transaction, until a batch comes back short. Returns how many this worker settled.
   * A batch that fails is retried one order at a time, so one order that cannot settle
   * (a bug: it is logged, and set aside for a minute) never holds up the others.
   */
  async settleDue(): Promise<number> {
    // Several transactions at once: claims never overlap (SKIP LOCKED), and while one waits
    // for the house accounts another is already inserting its postings. A transaction that
    // found nothing ends while the others wait between batches; when one of those then finds
    // work (orders of a burst keep coming due), it starts another, so the round is back to
    // its parallelism instead of settling the rest of the burst alone.
    let total = 0;
    let running = 0;
    const drains: Promise<void>[] = [];
    const start = (): void => {
      running++;
      drains.push(
        this.drain(() => {
          if (running < this.parallelism) start();
        })
          .then((settled) => {
            total += settled;
          })
          .finally(() => {
            running--;
          }),
      );
    };
    for (let i = 0; i < this.parallelism; i++) start();
    // A drain may start another while it runs, before it ends: this loop sees it.
    for (let i = 0; i < drains.length; i++) await drains[i];
    return total;
  }

  /**
   * One of the round's transactions in turn: it claims what is due, settles it, and claims
   * again, until a claim finds nothing. While another of them is still settling a batch, one
   * that found nothing looks again every OVERLAP_POLL_MS: orders that come due meanwhile are
   * claimed then, instead of waiting for that batch to end (in a burst, each order waits about
   * half a batch less). `onWork` is told each time a batch settled something.
   */
  private async drain(onWork: () => void): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.deps.clock.now();
      let settled: number;
      this.inBatch++;
      try {
        settled = await this.settleBatch(now, this.batchSize);
      } catch (error) {
        this.deps.log?.error(
          { err: error },
          'contract settlement: a batch failed; settling its orders one by one',
        );
        settled = await this.settleOneByOne(now);
      } finally {
        this.inBatch--;
      }
      total += settled;
      if (settled > 0) {
        onWork();
        continue;
      }
      if (this.inBatch === 0) break;
      await new Promise((resolve) => setTimeout(resolve, OVERLAP_POLL_MS));
    }
    return total;
  }

  private async settleOneByOne(now: Date): Promise<number> {
    let settled = 0;
    for (let i = 0; i < this.batchSize; i++) {
      const claimed: number[] = [];
      try {
        const count = await this.settleBatch(now, 1, claimed);
        if (count === 0) break;
        settled += count;
      } catch (error) {
        const [id] = claimed;
        if (id === undefined) throw error;
        this.deps.log?.error(
          { err: error, orderId: id },
          'contract settlement: an order failed to settle; set aside for a minute',
        );
        this.setAside.set(id, now.getTime() + SET_ASIDE_MS);
      }
    }
    return settled;
  }

  /** One batch: claim, settle, commit, then tell the owners. */
  async settleBatch(
    now: Date,
    limit: number = this.batchSize,
    claimed: number[] = [],
  ): Promise<number> {
    const readyBefore = new Date(now.getTime() - RECORDING_LATENESS_MS);
    for (const [id, until] of this.setAside) if (until <= now.getTime()) this.setAside.delete(id);
    const excluded = [...this.setAside.keys()].map(String);
    let messages: CreatedMessage[] = [];
    const orders = await this.deps.db.transaction(async (tx) => {
      const rows = await runNamed<ClaimRow>(tx as Tx, CLAIM_DUE, [
        now,
        limit,
        readyBefore,
        excluded,
        CONTRACT_ASSET,
      ]);
      claimed.push(...rows.map((row) => Number(row.id)));
      if (rows.length === 0) return [];
      // The owners' futures accounts came with the claim; the house's are known after the first batch.
      const accounts = await this.deps.ledger.resolveAccounts(tx, [FEES, CONTRACTS]);
      for (const row of rows) {
        if (row.account_id === null)
          throw new Error(`order ${row.id}: its owner has no futures account`);
        accounts.set(
          accountName(userAccount(Number(row.user_id), 'futures', CONTRACT_ASSET)),
          Number(row.account_id),
        );
      }
      // Stamped when the results are written, not when the orders were claimed.
      const settledAt = this.deps.clock.now();
      const settled = rows.map((row) => settle(row, settledAt));
      const specs = settled.map(settledMessage);
      const languages = rows.map((row) => languageOf(row.language));
      const texts = specs.map((spec, i) => renderMessage(spec, languages[i] ?? 'en'));
      const ordersWritten = runNamed<BatchResult>(tx as Tx, SETTLE_ORDERS, [
        settled.map((o) => String(o.id)),
        settled.map((o) => o.outcome),
        settled.map((o) => (o.closeTick ? String(o.closeTick.id) : null)),
        settled.map((o) => (o.closeTick ? o.closeTick.priceMinor.toString() : null)),
        settled.map((o) => (o.payoutMinor as bigint).toString()),
        specs.map((spec) => spec.ref),
        specs.map((spec) => spec.link ?? null),
        languages,
        texts.map((t) => t.title),
        texts.map((t) => t.body),
        settledAt,
        (specs[0] as MessageSpec).kind,
      ]);
      // Queued right behind the orders' statement, its arrays built while that one runs (a
      // refusal of the entries, thrown or not, fails the batch either way). Last, so the house
      // accounts' rows (locked by the balance trigger when the statement ends) are held only
      // until the commit: parallel batches queue on them that long.
      const ledgerWritten = (async () =>
        this.deps.ledger.postManyResolved(
          tx,
          settledAt,
          settled.map(settlementEntryOf),
          accounts,
        ))();
      const [[result]] = await Promise.all([ordersWritten, ledgerWritten]);
      // Claimed rows are locked by this transaction: each must settle here, or none does.
      if (result?.settled !== settled.length)
        throw new Error(`settled ${result?.settled} of ${settled.length} claimed orders`);
      const byRef = new Map(specs.map((spec, i) => [spec.ref, i]));
      messages = result.messages.map(([id, ref]) => {
        const i = byRef.get(ref) as number;
        const spec = specs[i] as MessageSpec;
        const text = texts[i] as { title: string; body: string };
        return {
          userId: spec.userId,
          message: {
            id,
            kind: spec.kind,
            title: text.title,
            body: text.body,
            link: spec.link ?? null,
            read: false,
            createdAt: settledAt.toISOString(),
          },
        };
      });
      return settled;
    });
    const { metrics } = this.deps;
    const users = new Set<number>();
    const atMs = Date.now();
    for (const order of orders) {
      const lagMs = Math.max(0, (order.settledAt ?? now).getTime() - order.deliverAt.getTime());
      if (this.recent.length < MAX_RECENT_LAGS) this.recent.push({ atMs, lagMs });
      if (metrics) {
        if (order.outcome === 'void') metrics.ordersVoided.inc();
        else metrics.ordersSettled.inc({ outcome: order.outcome ?? 'unknown' });
        metrics.settlementLag.observe(lagMs / 1000);
      }
      const view: Order = orderView(order, order.settledAt ?? now, 'en', null);
      this.deps.hub.publishToUser(order.userId, { type: 'order.settled', order: view });
      users.add(order.userId);
    }
    for (const userId of users) this.deps.hub.publishToUser(userId, { type: 'balance.changed' });
    publishMessages(this.deps.hub, messages);
    return orders.length;
  }

  /**
   * Starts the loop: catches up at once (the returned promise settles when that first
   * round is done), then wakes at each next delivery, and at least every second for
   * orders placed by other processes.
   */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    this.running = true;
    this.deps.log?.info('contract settlement worker started');
    this.round();
    return this.current ?? Promise.resolve();
  }

  /** Stops the loop and waits for a batch in progress (the app's close calls this before the database closes). */
  async stop(): Promise<void> {
    this.running = false;
    this.clearTimer();
    await this.current;
  }

  /**
   * Open orders more than `afterS` past their delivery, and how long past it the oldest open
   * order is (0 when none is due): for metrics, alerts and readiness, not the settling itself.
   */
  async overdue(afterS: number): Promise<{ count: number; oldestS: number }> {
    const [row] = await runNamed<{ overdue: number; oldest_s: number | null }>(
      this.deps.db,
      OVERDUE,
      [this.deps.clock.now().toISOString(), afterS],
    );
    return { count: row?.overdue ?? 0, oldestS: row?.oldest_s ?? 0 };
  }

  /** The p99 lag (s) of the orders this process settled in the last minute; null when none. */
  recentLagP99(): number | null {
    const since = Date.now() - 60_000;
    this.recent = this.recent.filter((entry) => entry.atMs >= since);
    if (this.recent.length === 0) return null;
    const lags = this.recent.map((entry) => entry.lagMs).sort((a, b) => a - b);
    return (lags[Math.min(lags.length - 1, Math.ceil(lags.length * 0.99) - 1)] ?? 0) / 1000;
  }

  /** An order placed in this process: wake at its delivery if that is sooner than planned. */
  notePlaced(deliverAt: Date): void {
    if (!this.running || this.current) return;
    const delay = Math.max(0, deliverAt.getTime() - this.deps.clock.now().getTime());
    if (this.deps.clock.now().getTime() + delay < this.timerAt) this.arm(delay);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private arm(delayMs: number): void {
    this.clearTimer();
    this.timerAt = this.deps.clock.now().getTime() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.round();
    }, delayMs);
  }

  private round(): void {
    this.current = this.tick()
      .catch((error: unknown) =>
        this.deps.log?.error({ err: error }, 'contract settlement: a round failed; retrying'),
      )
      .finally(() => {
        this.current = null;
      });
  }

  private async tick(): Promise<void> {
    let next = SWEEP_INTERVAL_MS;
    try {
      await this.settleDue();
      const [row] = await runNamed<{ next_ms: number | null }>(this.deps.db, NEXT_DUE, []);
      if (row?.next_ms !== null && row?.next_ms !== undefined) {
        const untilNext = Math.round(row.next_ms) - this.deps.clock.now().getTime();
        next = Math.min(next, untilNext > 0 ? untilNext : NOT_READY_RETRY_MS);
      }
    } finally {
      if (this.running) this.arm(next);
    }
  }
}
