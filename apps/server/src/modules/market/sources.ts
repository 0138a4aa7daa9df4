import { INSTRUMENTS, INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';
import type { RealPriceSource } from '#platform/config.ts';
import { PYTH_FEEDS, type PythFeedMap } from './pyth/feed-ids.ts';

/** The demo walk's source name: its prices exist only in demo mode. */
export const SIMULATED_SOURCE = 'simulated';

/**
 * Which instruments a real source prices. Binance trades the crypto pairs only; Pyth
 * publishes crypto, forex, metals and commodities (pyth/feed-ids.ts), a commodity through its
 * front futures month: which month that is, and whether one is known yet (pyth/contracts.ts
 * reads new months from Hermes), is the stream's business at each instant. A commodity with no
 * known front month has no Pyth price then, and is not tradable, as any stale instrument.
 */
export function coverage(
  source: RealPriceSource,
  pythFeeds: PythFeedMap = PYTH_FEEDS,
): InstrumentSymbol[] {
  if (source === 'binance')
    return INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto');
  return INSTRUMENT_SYMBOLS.filter((symbol) => pythFeeds[symbol] !== null);
}

/** Pyth's feeds with the operator's replacements (PYTH_FEED_IDS): a replaced instrument follows that one feed. */
export function configuredPythFeeds(overrides: Readonly<Record<string, string>>): PythFeedMap {
  const feeds: Record<string, PythFeedMap[InstrumentSymbol]> = { ...PYTH_FEEDS };
  for (const [symbol, feedId] of Object.entries(overrides))
    feeds[symbol] = { kind: 'spot', symbol: `${symbol} (PYTH_FEED_IDS)`, feedId };
  return feeds as PythFeedMap;
}

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
export function sourcePlan(market: {
  sources: readonly RealPriceSource[];
  simulated: boolean;
  pythFeedIds?: Readonly<Record<string, string>>;
}): SourcePlan {
  const pythFeeds = configuredPythFeeds(market.pythFeedIds ?? {});
  const covered = new Map(
    market.sources.map((source) => [source, new Set(coverage(source, pythFeeds))]),
  );
  const byInstrument = {} as Record<InstrumentSymbol, string[]>;
  const simulated: InstrumentSymbol[] = [];
  for (const symbol of INSTRUMENT_SYMBOLS) {
    const real = market.sources.filter((source) => covered.get(source)?.has(symbol));
    if (real.length === 0 && market.simulated) simulated.push(symbol);
    byInstrument[symbol] = real.length > 0 ? real : market.simulated ? [SIMULATED_SOURCE] : [];
  }
  return { byInstrument, simulated };
}
