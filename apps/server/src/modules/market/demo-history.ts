import { randomInt } from 'node:crypto';
import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import type { Db } from '#platform/db.ts';
import { SIMULATED_MARKET, VOLUME_SCALE } from './feed.ts';
import {
  DAY_MS,
  type HistoryCandle,
  MINUTE_MS,
  insertHistoryCandles,
  oldestCandle,
} from './history-candles.ts';

/**
 * Demo mode's market history (issue 32): at first start, every instrument the demo walk prices
 * gets `days` of one-minute candles before its first recorded minute, so its chart, 24 h figures
 * and sparkline look like a market's from the first screen. Like every demo price it is simulated
 * (the app says so under every list and chart) and it is display only: settlement reads ticks,
 * never candles, and no tick is written here.
 *
 * The path is a random walk of the instrument's volatility, drawn from the OS's secure random
 * source, reverting toward its demo level like the live walk, and scaled so its last close is
 * the first recorded open: the history runs into the live prices without a jump. Written six
 * hours per transaction under an advisory lock, back from the oldest candle there is, so a
 * restart finishes what was begun and a second worker adds nothing.
 */
export const DEMO_HISTORY_LOCK_ID = 7_315_004;
/** The live walk's pull back toward its level (feed.ts REVERSION_S), per minute. */
const REVERSION_PER_MINUTE = 60 / 86_400;

/** A standard normal draw from the OS's secure random source (Box–Muller). */
function normal(): number {
  const u = (randomInt(1, 2 ** 47) / 2 ** 47) as number;
  const v = randomInt(0, 2 ** 47) / 2 ** 47;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

type Candle = Omit<HistoryCandle, 'openTimeMs'>;

/** `count` one-minute candles whose last close is `endMinor` (at the instrument's price scale). */
export function demoCandles(symbol: InstrumentSymbol, count: number, endMinor: bigint): Candle[] {
  const market = SIMULATED_MARKET[symbol];
  const level = Number(market.start);
  const sigma = (market.sigmaPpbPerS / 1e9) * Math.sqrt(60);
  const meanVolume = Number(market.volumePerS) * 60;
  const path: { open: number; high: number; low: number; close: number; volume: number }[] = [];
  let price = level;
  for (let i = 0; i < count; i++) {
    const open = price;
    const close = Math.max(
      level * 0.05,
      open * (1 + sigma * normal()) + (level - open) * REVERSION_PER_MINUTE,
    );
    const wick = () => Math.abs(normal()) * sigma * 0.5;
    path.push({
      open,
      close,
      high: Math.max(open, close) * (1 + wick()),
      low: Math.min(open, close) * (1 - wick()),
      volume: meanVolume * (0.2 + (randomInt(0, 1_000_000) / 1_000_000) * 1.6),
    });
    price = close;
  }
  const scale = 10 ** INSTRUMENTS[symbol].priceScale;
  // Scaled so the last close is the live walk's first price, in minor units.
  const factor = Number(endMinor) / scale / (path.at(-1)?.close ?? level);
  const minor = (value: number) => BigInt(Math.max(1, Math.round(value * factor * scale)));
  return path.map((c) => {
    const [open, close, high, low] = [minor(c.open), minor(c.close), minor(c.high), minor(c.low)];
    return {
      open,
      close,
      high: [open, close, high].reduce((a, b) => (b > a ? b : a)),
      low: [open, close, low].reduce((a, b) => (b < a ? b : a)),
      volume: BigInt(Math.round(c.volume * 10 ** VOLUME_SCALE)),
    };
  });
}

/** Minutes written per transaction: few enough that requests on the embedded database, which
 * has one connection, wait a fraction of a second behind one (a day took seconds on a busy machine). */
const CHUNK_MINUTES = 360;

/**
 * Writes each of `instruments`' history back to `days` before `now`, newest first, six hours per
 * transaction; returns how many candles it wrote. Each piece is scaled to end where the one after
 * it opens, so the path is continuous. A restart goes on from the oldest candle there is, and
 * writes nothing once the history reaches back `days`. `days` 0 writes nothing.
 */
export async function backfillDemoHistory(
  db: Db,
  options: {
    instruments: readonly InstrumentSymbol[];
    now: Date;
    days: number;
    /** Stops before the next piece (the app is closing). */
    signal?: AbortSignal;
  },
): Promise<number> {
  if (options.days <= 0) return 0;
  const firstMinute = Math.floor(options.now.getTime() / MINUTE_MS) * MINUTE_MS;
  const target = firstMinute - options.days * DAY_MS;
  let written = 0;
  for (const symbol of options.instruments) {
    for (;;) {
      if (options.signal?.aborted) return written;
      const wrote = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_HISTORY_LOCK_ID})`);
        // The oldest candle there is: the first live minute, or the history written so far.
        const oldest = await oldestCandle(tx, symbol);
        const startMs = oldest?.openTimeMs ?? firstMinute;
        if (startMs <= target) return 0;
        const count = Math.min(CHUNK_MINUTES, Math.floor((startMs - target) / MINUTE_MS));
        const end =
          oldest?.open ??
          BigInt(
            Math.round(
              Number(SIMULATED_MARKET[symbol].start) * 10 ** INSTRUMENTS[symbol].priceScale,
            ),
          );
        const candles = demoCandles(symbol, count, end).map((c, i) => ({
          ...c,
          openTimeMs: startMs - (count - i) * MINUTE_MS,
        }));
        await insertHistoryCandles(tx, symbol, candles, 60);
        return count;
      });
      if (wrote === 0) break;
      written += wrote;
      // Let the requests waiting on the database go first.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return written;
}
