import { z } from 'zod';
import type { AssetCode } from './wallet.ts';

/**
 * Instruments with a recorded price (ARCHITECTURE §1, §6). A price is an exact decimal
 * with the instrument's fixed price scale (stored as an integer of 10^-scale units);
 * like an asset's scale, an instrument's price scale never changes once it has ticks.
 */
export const INSTRUMENTS = {
  BTCUSDT: { base: 'BTC', quote: 'USDT', priceScale: 2 },
  ETHUSDT: { base: 'ETH', quote: 'USDT', priceScale: 2 },
  BNBUSDT: { base: 'BNB', quote: 'USDT', priceScale: 2 },
  SOLUSDT: { base: 'SOL', quote: 'USDT', priceScale: 2 },
  XRPUSDT: { base: 'XRP', quote: 'USDT', priceScale: 4 },
  DOGEUSDT: { base: 'DOGE', quote: 'USDT', priceScale: 5 },
  TRXUSDT: { base: 'TRX', quote: 'USDT', priceScale: 5 },
  LTCUSDT: { base: 'LTC', quote: 'USDT', priceScale: 2 },
} as const satisfies Record<string, { base: AssetCode; quote: 'USDT'; priceScale: number }>;
export type InstrumentSymbol = keyof typeof INSTRUMENTS;
export const INSTRUMENT_SYMBOLS = Object.keys(INSTRUMENTS) as InstrumentSymbol[];

export function isInstrumentSymbol(value: unknown): value is InstrumentSymbol {
  return typeof value === 'string' && value in INSTRUMENTS;
}

/** The instrument that prices an asset in USDT, if any. */
export function instrumentOf(asset: AssetCode): InstrumentSymbol | undefined {
  const symbol = `${asset}USDT`;
  return isInstrumentSymbol(symbol) ? symbol : undefined;
}

/** A price older than this is never used: no quote, no valuation, no settlement on it. */
export const PRICE_MAX_AGE_MS = 5_000;

/** Where ticks come from; `simulated` is demo data and always says so. */
export const PRICE_SOURCES = ['simulated'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export const marketPriceSchema = z.object({
  asset: z.string(),
  instrument: z.string(),
  /** USDT per unit, at the instrument's price scale; null when no tick of the last 5 s exists. */
  price: z.string().nullable(),
  /** The tick's time (ISO 8601), null with the price. */
  ts: z.iso.datetime().nullable(),
  source: z.string().nullable(),
  /** The source in the request's language, e.g. "simulated (demo data)". */
  sourceLabel: z.string().nullable(),
});
export type MarketPrice = z.infer<typeof marketPriceSchema>;

export const marketPricesSchema = z.object({ items: z.array(marketPriceSchema) });
export type MarketPrices = z.infer<typeof marketPricesSchema>;
