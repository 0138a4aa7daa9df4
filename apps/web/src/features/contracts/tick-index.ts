import type { OrderTick } from '@tradewind/contract/instant';
import { INSTRUMENTS, type Instrument, isInstrumentSymbol } from '@tradewind/contract/market';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { type SourceQuote, indexPrice } from '@tradewind/contract/price-index';

/** A tick's price recomputed in the browser from the quotes listed with it. */
export interface TickIndex {
  /** How many sources the median was taken over (0: none of the quotes was fresh at the tick's instant). */
  count: number;
  /** The recomputed price as a decimal string, or null when no quote counts. */
  price: string | null;
  /** Whether it is the tick's recorded price. */
  agrees: boolean;
}

/**
 * The instrument's price scale: from the instruments list when it has loaded, else from the
 * contract's own table (the same figures; an order's symbol is always one of them).
 */
export function priceScaleOf(
  symbol: string,
  instrument: Pick<Instrument, 'priceScale'> | undefined,
): number {
  if (instrument) return instrument.priceScale;
  return isInstrumentSymbol(symbol) ? INSTRUMENTS[symbol].priceScale : 0;
}

/**
 * Applies the index rule (packages/contract price-index.ts, the function the recorder and the
 * replay use) to the tick's quotes at the tick's instant, so the page shows a median it worked
 * out itself rather than one it was told. Null when the tick lists no quotes.
 */
export function tickIndex(tick: OrderTick, scale: number): TickIndex | null {
  if (!tick.quotes || tick.quotes.length === 0) return null;
  const quotes: SourceQuote[] = [];
  for (const quote of tick.quotes) {
    const priceMinor = parseAmount(quote.price, scale);
    // A price with more places than the instrument has is not one the recorder could have kept.
    if (priceMinor === undefined) return { count: 0, price: null, agrees: false };
    quotes.push({
      source: quote.source,
      priceMinor,
      sourceTimeMs: Date.parse(quote.sourceTime),
      receivedAtMs: Date.parse(quote.receivedAt),
    });
  }
  const index = indexPrice(quotes, Date.parse(tick.ts));
  if (!index) return { count: 0, price: null, agrees: false };
  return {
    count: index.used.length,
    price: formatAmount(index.priceMinor, scale),
    agrees: parseAmount(tick.price, scale) === index.priceMinor,
  };
}
