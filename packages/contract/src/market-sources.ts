import * as z from 'zod/mini';
import { instrumentSymbolSchema } from './market.ts';

/**
 * Where each instrument's price comes from, for the operator console (read-only: the
 * sources are configuration, MARKET_SOURCES, and no operator can write a price).
 */
export const priceSourceSchema = z.object({
  /** binance | pyth | simulated */
  source: z.string(),
  /** The source's own id: Binance's stream name, Pyth's feed id. */
  id: z.string(),
  /** A name a person reads: Binance's symbol, Pyth's symbol (a futures contract names its month). */
  label: z.string(),
  /** The source time of its quote in the instrument's latest tick, if it was in it. */
  lastQuoteAt: z.nullable(z.string()),
});
export type PriceSource = z.infer<typeof priceSourceSchema>;

export const instrumentSourcesSchema = z.object({
  symbol: instrumentSymbolSchema,
  sources: z.array(priceSourceSchema),
  /** When the instrument's latest tick was recorded, if there is one. */
  lastTickAt: z.nullable(z.string()),
});

export const marketSourcesSchema = z.object({
  items: z.array(instrumentSourcesSchema),
  /** How a quote counts: at most this old at the instant. */
  freshMs: z.number(),
  /** A quote this far (parts per million) from its reference is quarantined. */
  quarantineBandPpm: z.number(),
  /** Quotes quarantined in the last 24 hours. */
  quarantinedLastDay: z.number(),
});
export type MarketSources = z.infer<typeof marketSourcesSchema>;
