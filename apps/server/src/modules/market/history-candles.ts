import type { InstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { queryRows } from '#platform/db.ts';

/**
 * Market history written before the first recorded minute (issue 32): the demo's simulated
 * path (demo-history.ts) and the real sources' own history (source-history.ts). Candles only,
 * never a tick: settlement reads recorded ticks, and the history is what the charts, 24 h
 * figures and sparklines show.
 */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** One minute's candle at the instrument's price scale; volume in base units at VOLUME_SCALE. */
export interface HistoryCandle {
  /** The minute's start (ms, a whole minute). */
  openTimeMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/** Whether a candle obeys `market_candles_1m`'s rules: a whole minute, positive prices, low ≤ open, close ≤ high. */
export function isValidCandle(c: HistoryCandle): boolean {
  return (
    Number.isSafeInteger(c.openTimeMs) &&
    c.openTimeMs % MINUTE_MS === 0 &&
    c.low > 0n &&
    c.low <= c.open &&
    c.low <= c.close &&
    c.high >= c.open &&
    c.high >= c.close &&
    c.volume >= 0n
  );
}

/** The oldest candle an instrument has (live or history), or null. */
export async function oldestCandle(
  db: Executor,
  symbol: InstrumentSymbol,
): Promise<{ openTimeMs: number; open: bigint } | null> {
  const [row] = await queryRows<{ open_time: Date | string; open: string }>(
    db,
    sql`select open_time, open_minor::text as open from market_candles_1m
        where instrument = ${symbol} order by open_time limit 1`,
  );
  return row ? { openTimeMs: new Date(row.open_time).getTime(), open: BigInt(row.open) } : null;
}

/**
 * Inserts history candles in one statement, as the recorder (the table takes candles from the
 * recorder only); a minute that already has a candle keeps it. Each counts as `tickCount`
 * ticks: the demo's stand for a minute of walk seconds, a source's bar for one quote.
 */
export async function insertHistoryCandles(
  db: Executor,
  symbol: InstrumentSymbol,
  candles: readonly HistoryCandle[],
  tickCount: number,
): Promise<void> {
  if (candles.length === 0) return;
  const list = (values: readonly unknown[]) => `{${values.join(',')}}`;
  await db.execute(sql`select set_config('tradewind.recorder', 'on', true)`);
  await db.execute(
    sql`insert into market_candles_1m (instrument, open_time, open_minor, high_minor, low_minor, close_minor, volume_minor, tick_count, first_ts, last_ts)
        select ${symbol}, t, o, h, l, c, v, ${tickCount}, t, t + interval '59 seconds'
        from unnest(${list(candles.map((c) => new Date(c.openTimeMs).toISOString()))}::timestamptz[],
                    ${list(candles.map((c) => c.open))}::numeric[], ${list(candles.map((c) => c.high))}::numeric[],
                    ${list(candles.map((c) => c.low))}::numeric[], ${list(candles.map((c) => c.close))}::numeric[],
                    ${list(candles.map((c) => c.volume))}::numeric[])
          as x(t, o, h, l, c, v)
        on conflict do nothing`,
  );
}
