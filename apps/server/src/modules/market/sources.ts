import { INSTRUMENTS, INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';
import type { RealPriceSource } from '#platform/config.ts';

/** The demo walk's source name: its prices exist only in demo mode. */
export const SIMULATED_SOURCE = 'simulated';

/**
 * Which instruments each real source prices. Binance trades the crypto pairs only; Pyth
 * publishes every one of them, forex, metals and commodities included (pyth/feed-ids.ts).
 */
export const SOURCE_COVERAGE: Record<RealPriceSource, readonly InstrumentSymbol[]> = {
  binance: INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto'),
  pyth: INSTRUMENT_SYMBOLS,
};

export interface SourcePlan {
  /** Per instrument, the sources that price it (real ones, or the demo walk alone). */
  byInstrument: Record<InstrumentSymbol, string[]>;
  /** The instruments the demo walk prices: those no configured real source covers, in demo mode only. */
  simulated: InstrumentSymbol[];
}

/**
 * Who prices what. Real sources price what they cover; in demo mode the walk prices what
 * none covers, so a demo with Binance keeps real crypto prices and walks the rest; outside
 * demo mode an instrument no real source covers has no price and cannot be traded.
 */
export function sourcePlan(market: { sources: readonly RealPriceSource[]; simulated: boolean }): SourcePlan {
  const byInstrument = {} as Record<InstrumentSymbol, string[]>;
  const simulated: InstrumentSymbol[] = [];
  for (const symbol of INSTRUMENT_SYMBOLS) {
    const real = market.sources.filter((source) => SOURCE_COVERAGE[source].includes(symbol));
    if (real.length === 0 && market.simulated) simulated.push(symbol);
    byInstrument[symbol] = real.length > 0 ? real : market.simulated ? [SIMULATED_SOURCE] : [];
  }
  return { byInstrument, simulated };
}
