import * as z from 'zod/mini';
import type { AssetCode } from './wallet.ts';

/** What an instrument is: the Transaction screen's tabs and Home's sections group by it. */
export const INSTRUMENT_KINDS = ['crypto', 'commodity', 'forex', 'metal'] as const;
export type InstrumentKind = (typeof INSTRUMENT_KINDS)[number];

interface InstrumentDef {
  kind: InstrumentKind;
  /** The priced thing: a wallet asset for crypto pairs, otherwise a ticker-style code (WTI, EUR, XAU). */
  base: string;
  /** The currency the price is in: USDT for crypto pairs, USD (JPY for USD/JPY) otherwise. */
  quote: 'USDT' | 'USD' | 'JPY';
  priceScale: number;
  /** Open for instant-contract orders. */
  tradable: boolean;
  /** Shown on Home under "recommended" / "popular". */
  recommended: boolean;
  popular: boolean;
}

/**
 * Instruments with a recorded price (ARCHITECTURE §1, §6). A price is an exact decimal
 * with the instrument's fixed price scale (stored as an integer of 10^-scale units);
 * like an asset's scale, an instrument's price scale never changes once it has ticks.
 * Display names are in the catalogues (`market.instruments.<symbol>`); the icon is
 * `/icons/instruments/<symbol>.svg` on the web app, falling back to the base's initials.
 */
export const INSTRUMENTS = {
  BTCUSDT: {
    kind: 'crypto',
    base: 'BTC',
    quote: 'USDT',
    priceScale: 2,
    tradable: true,
    recommended: true,
    popular: true,
  },
  ETHUSDT: {
    kind: 'crypto',
    base: 'ETH',
    quote: 'USDT',
    priceScale: 2,
    tradable: true,
    recommended: true,
    popular: true,
  },
  BNBUSDT: {
    kind: 'crypto',
    base: 'BNB',
    quote: 'USDT',
    priceScale: 2,
    tradable: true,
    recommended: true,
    popular: false,
  },
  SOLUSDT: {
    kind: 'crypto',
    base: 'SOL',
    quote: 'USDT',
    priceScale: 2,
    tradable: true,
    recommended: false,
    popular: true,
  },
  XRPUSDT: {
    kind: 'crypto',
    base: 'XRP',
    quote: 'USDT',
    priceScale: 4,
    tradable: true,
    recommended: false,
    popular: true,
  },
  DOGEUSDT: {
    kind: 'crypto',
    base: 'DOGE',
    quote: 'USDT',
    priceScale: 5,
    tradable: true,
    recommended: false,
    popular: true,
  },
  TRXUSDT: {
    kind: 'crypto',
    base: 'TRX',
    quote: 'USDT',
    priceScale: 5,
    tradable: true,
    recommended: false,
    popular: false,
  },
  LTCUSDT: {
    kind: 'crypto',
    base: 'LTC',
    quote: 'USDT',
    priceScale: 2,
    tradable: true,
    recommended: false,
    popular: false,
  },
  WTIUSD: {
    kind: 'commodity',
    base: 'WTI',
    quote: 'USD',
    priceScale: 2,
    tradable: true,
    recommended: false,
    popular: false,
  },
  NGASUSD: {
    kind: 'commodity',
    base: 'NGAS',
    quote: 'USD',
    priceScale: 3,
    tradable: true,
    recommended: false,
    popular: false,
  },
  COPPERUSD: {
    kind: 'commodity',
    base: 'COPPER',
    quote: 'USD',
    priceScale: 4,
    tradable: true,
    recommended: false,
    popular: false,
  },
  EURUSD: {
    kind: 'forex',
    base: 'EUR',
    quote: 'USD',
    priceScale: 5,
    tradable: true,
    recommended: false,
    popular: false,
  },
  GBPUSD: {
    kind: 'forex',
    base: 'GBP',
    quote: 'USD',
    priceScale: 5,
    tradable: true,
    recommended: false,
    popular: false,
  },
  USDJPY: {
    kind: 'forex',
    base: 'USD',
    quote: 'JPY',
    priceScale: 3,
    tradable: true,
    recommended: false,
    popular: false,
  },
  AUDUSD: {
    kind: 'forex',
    base: 'AUD',
    quote: 'USD',
    priceScale: 5,
    tradable: true,
    recommended: false,
    popular: false,
  },
  XAUUSD: {
    kind: 'metal',
    base: 'XAU',
    quote: 'USD',
    priceScale: 2,
    tradable: true,
    recommended: false,
    popular: false,
  },
  XAGUSD: {
    kind: 'metal',
    base: 'XAG',
    quote: 'USD',
    priceScale: 3,
    tradable: true,
    recommended: false,
    popular: false,
  },
} as const satisfies Record<string, InstrumentDef>;
export type InstrumentSymbol = keyof typeof INSTRUMENTS;
export const INSTRUMENT_SYMBOLS = Object.keys(INSTRUMENTS) as InstrumentSymbol[];

export function isInstrumentSymbol(value: unknown): value is InstrumentSymbol {
  return typeof value === 'string' && Object.hasOwn(INSTRUMENTS, value);
}

/** The crypto pair that prices a wallet asset in USDT, if any (commodities, forex and metals never value a wallet). */
export function instrumentOf(asset: AssetCode): InstrumentSymbol | undefined {
  const symbol = `${asset}USDT`;
  return isInstrumentSymbol(symbol) && INSTRUMENTS[symbol].kind === 'crypto' ? symbol : undefined;
}

/** Typed as the symbols it lets through: mini's `refine` does not narrow the type as classic's did. */
export const instrumentSymbolSchema = z
  .string({ error: 'validation.required' })
  .check(z.refine(isInstrumentSymbol, { error: 'validation.unknown_instrument' })) as z.ZodMiniType<
  InstrumentSymbol,
  string
>;

/** A price older than this is never used: no quote, no valuation, no settlement on it. */
export const PRICE_MAX_AGE_MS = 5_000;

/** Where ticks come from; `simulated` is demo data and always says so. */
export const PRICE_SOURCES = ['simulated', 'binance'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export const marketPriceSchema = z.object({
  asset: z.string(),
  instrument: z.string(),
  /** USDT per unit, at the instrument's price scale; null when no tick of the last 5 s exists. */
  price: z.nullable(z.string()),
  /** The tick's time (ISO 8601), null with the price. */
  ts: z.nullable(z.iso.datetime()),
  source: z.nullable(z.string()),
  /** The source in the request's language, e.g. "simulated (demo data)". */
  sourceLabel: z.nullable(z.string()),
});
export type MarketPrice = z.infer<typeof marketPriceSchema>;

export const marketPricesSchema = z.object({ items: z.array(marketPriceSchema) });
export type MarketPrices = z.infer<typeof marketPricesSchema>;

/** An instrument as the screens list it, its name in the request's language. */
export const instrumentSchema = z.object({
  symbol: z.string(),
  kind: z.enum(INSTRUMENT_KINDS),
  base: z.string(),
  quote: z.string(),
  name: z.string(),
  priceScale: z.number().check(z.int()),
  tradable: z.boolean(),
  recommended: z.boolean(),
  popular: z.boolean(),
});
export type Instrument = z.infer<typeof instrumentSchema>;
export const instrumentsSchema = z.object({ items: z.array(instrumentSchema) });

/**
 * Live price with 24 h statistics (over the rolling 24 h of 1-minute candles). `price` and
 * the statistics are null when nothing fresh is recorded; `changePct` is a decimal string
 * with two places, e.g. "-1.25".
 */
export const tickerSchema = z.object({
  symbol: z.string(),
  price: z.nullable(z.string()),
  ts: z.nullable(z.iso.datetime()),
  source: z.nullable(z.string()),
  sourceLabel: z.nullable(z.string()),
  open24h: z.nullable(z.string()),
  high24h: z.nullable(z.string()),
  low24h: z.nullable(z.string()),
  /** In the base unit; "0" when the feed reports no volume (the simulated feed reports some). */
  volume24h: z.nullable(z.string()),
  changePct: z.nullable(z.string()),
});
export type Ticker = z.infer<typeof tickerSchema>;
export const tickersSchema = z.object({ items: z.array(tickerSchema) });
export const tickerQuerySchema = z.strictObject({ symbol: instrumentSymbolSchema });

/** Points of a sparkline: the last 24 hours, one close an hour. */
export const SPARKLINE_POINTS = 24;
/**
 * Each instrument's last 24 hours for the Trade list's sparklines: the close of each hour that
 * has a candle, oldest first (fewer than 24 when the instrument has not been recorded that long).
 */
export const sparklineSchema = z.object({
  symbol: z.string(),
  closes: z.array(z.string()),
});
export type Sparkline = z.infer<typeof sparklineSchema>;
export const sparklinesSchema = z.object({ items: z.array(sparklineSchema) });
export type Sparklines = z.infer<typeof sparklinesSchema>;

/** 1-minute candles are built as ticks arrive; the others are derived from them. */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
export const KLINE_INTERVAL_MS: Record<KlineInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};
export const KLINE_MAX_LIMIT = 1000;

/** One candle; `t` is its open time in ms since the epoch (weeks open on Monday 00:00 UTC). */
export const candleSchema = z.object({
  t: z.number().check(z.int()),
  o: z.string(),
  h: z.string(),
  l: z.string(),
  c: z.string(),
  v: z.string(),
});
export type Candle = z.infer<typeof candleSchema>;

export const klinesQuerySchema = z.strictObject({
  symbol: instrumentSymbolSchema,
  interval: z.enum(KLINE_INTERVALS, { error: 'validation.invalid_value' }),
  /** Candles opening before this time (ms), for paging back; default now. */
  before: z.optional(
    z.coerce
      .number({ error: 'validation.invalid_value' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.positive({ error: 'validation.invalid_value' }),
      ),
  ),
  limit: z.optional(
    z.coerce
      .number({ error: 'validation.invalid_value' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.invalid_value' }),
        z.lte(KLINE_MAX_LIMIT, { error: 'validation.invalid_value' }),
      ),
  ),
});
export type KlinesQuery = z.infer<typeof klinesQuerySchema>;
/** Oldest first. */
export const klinesSchema = z.object({
  symbol: z.string(),
  interval: z.enum(KLINE_INTERVALS),
  items: z.array(candleSchema),
});
export type Klines = z.infer<typeof klinesSchema>;

export const favoritesSchema = z.object({ symbols: z.array(z.string()) });
export type Favorites = z.infer<typeof favoritesSchema>;
export const favoriteRequestSchema = z.strictObject({
  symbol: instrumentSymbolSchema,
  favorite: z.boolean({ error: 'validation.invalid_value' }),
});
export type FavoriteRequest = z.infer<typeof favoriteRequestSchema>;

/**
 * WebSocket channels (ARCHITECTURE §7). `ticker.<symbol>` carries a `Ticker` on every
 * recorded tick; `kline.<symbol>.<interval>` carries `{symbol, interval, candle}` whenever
 * the current candle of that interval changes. Messages are `{channel, data}`.
 */
export const tickerChannel = (symbol: string) => `ticker.${symbol}`;
export const klineChannel = (symbol: string, interval: KlineInterval) =>
  `kline.${symbol}.${interval}`;
export const klineMessageSchema = z.object({
  symbol: z.string(),
  interval: z.enum(KLINE_INTERVALS),
  candle: candleSchema,
});
export type KlineMessage = z.infer<typeof klineMessageSchema>;
