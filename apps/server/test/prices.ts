import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import { parseAmount } from '@tradewind/contract/money';
import type { FeedPrice, MarketFeed } from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import type { TestApp } from './harness.ts';

/** A feed that answers the prices a test sets: the recorder still does the recording. */
export class FixedFeed implements MarketFeed {
  readonly source = 'simulated';
  private prices = new Map<InstrumentSymbol, bigint>();

  set(prices: Partial<Record<InstrumentSymbol, string>>): void {
    this.prices = new Map();
    for (const [symbol, text] of Object.entries(prices) as [InstrumentSymbol, string][]) {
      const minor = parseAmount(text, INSTRUMENTS[symbol].priceScale);
      if (minor === undefined) throw new Error(`bad test price ${symbol} ${text}`);
      this.prices.set(symbol, minor);
    }
  }

  sample(): FeedPrice[] {
    return [...this.prices].map(([instrument, priceMinor]) => ({ instrument, priceMinor }));
  }
}

/**
 * Records the given prices through the real recorder, one second after the previous
 * recording (one tick per instrument per second), and leaves the clock at the tick.
 */
export async function recordPrices(
  t: TestApp,
  prices: Partial<Record<InstrumentSymbol, string>>,
): Promise<void> {
  t.clock.advance(1_000);
  const feed = new FixedFeed();
  feed.set(prices);
  const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feed });
  const inserted = await recorder.recordOnce(t.clock.now());
  if (inserted !== Object.keys(prices).length)
    throw new Error(`recorded ${inserted} of ${Object.keys(prices).length} ticks`);
}
