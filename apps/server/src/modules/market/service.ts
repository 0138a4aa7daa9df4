import { type InstrumentSymbol, INSTRUMENTS, INSTRUMENT_SYMBOLS, PRICE_MAX_AGE_MS, type MarketPrices, instrumentOf, isInstrumentSymbol } from '@tradewind/contract/market';
import type { Language } from '@tradewind/contract/languages';
import { formatAmount } from '@tradewind/contract/money';
import type { AssetCode } from '@tradewind/contract/wallet';
import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { translate } from '#platform/i18n.ts';
import { instruments, ticks } from './tables.ts';

/** A recorded tick, as the modules that price things use it. */
export interface RecordedPrice {
  tickId: number;
  instrument: InstrumentSymbol;
  /** Integer at the instrument's price scale. */
  priceMinor: bigint;
  priceScale: number;
  ts: Date;
  source: string;
}

export const priceText = (price: RecordedPrice) => formatAmount(price.priceMinor, price.priceScale);

function toRecorded(row: { id: number; instrument: string; priceMinor: bigint; ts: Date; source: string }): RecordedPrice | null {
  if (!isInstrumentSymbol(row.instrument)) return null;
  return { tickId: row.id, instrument: row.instrument, priceMinor: row.priceMinor, priceScale: INSTRUMENTS[row.instrument].priceScale, ts: row.ts, source: row.source };
}

const tickColumns = { id: ticks.id, instrument: ticks.instrument, priceMinor: ticks.priceMinor, ts: ticks.ts, source: ticks.source };

/**
 * The latest tick of an instrument at or before `now`, if it is at most 5 s old; otherwise
 * nothing. A stale price is never returned: whoever asks must refuse to act instead.
 */
export async function latestPrice(db: Executor, instrument: InstrumentSymbol, now: Date): Promise<RecordedPrice | null> {
  const [row] = await db
    .select(tickColumns)
    .from(ticks)
    .where(and(eq(ticks.instrument, instrument), lte(ticks.ts, now), gte(ticks.ts, new Date(now.getTime() - PRICE_MAX_AGE_MS))))
    .orderBy(desc(ticks.ts))
    .limit(1);
  return row ? toRecorded(row) : null;
}

/** The fresh latest tick of every instrument that has one. */
export async function latestPrices(db: Executor, now: Date): Promise<Map<InstrumentSymbol, RecordedPrice>> {
  const rows = await db
    .selectDistinctOn([ticks.instrument], tickColumns)
    .from(ticks)
    .where(and(lte(ticks.ts, now), gte(ticks.ts, new Date(now.getTime() - PRICE_MAX_AGE_MS))))
    .orderBy(ticks.instrument, desc(ticks.ts));
  const out = new Map<InstrumentSymbol, RecordedPrice>();
  for (const row of rows) {
    const price = toRecorded(row);
    if (price) out.set(price.instrument, price);
  }
  return out;
}

/** The last recorded price of every instrument, however old: only for a feed to continue its series. */
export async function lastRecordedPrices(db: Executor): Promise<Map<InstrumentSymbol, bigint>> {
  const rows = await db.selectDistinctOn([ticks.instrument], tickColumns).from(ticks).orderBy(ticks.instrument, desc(ticks.ts));
  return new Map(rows.filter((row) => isInstrumentSymbol(row.instrument)).map((row) => [row.instrument as InstrumentSymbol, row.priceMinor]));
}

/**
 * Prices in USDT for the wallet's valuation at `now`: USDT is 1, a coin is its fresh
 * recorded price, anything else is unpriced (never a stale or guessed price).
 */
export async function recordedPriceOf(db: Executor, now: Date): Promise<(asset: AssetCode) => string | null> {
  const prices = await latestPrices(db, now);
  return (asset) => {
    if (asset === 'USDT') return '1';
    const instrument = instrumentOf(asset);
    const price = instrument ? prices.get(instrument) : undefined;
    return price ? priceText(price) : null;
  };
}

export function sourceLabel(language: Language, source: string): string {
  return translate(language, `market.sources.${source}`);
}

/** GET /market/prices: every wallet asset's crypto pair against USDT, with its fresh tick or nulls. */
export async function pricesView(db: Executor, now: Date, language: Language): Promise<MarketPrices> {
  const prices = await latestPrices(db, now);
  return {
    items: INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto').map((instrument) => {
      const price = prices.get(instrument);
      return {
        asset: INSTRUMENTS[instrument].base,
        instrument,
        price: price ? priceText(price) : null,
        ts: price ? price.ts.toISOString() : null,
        source: price?.source ?? null,
        sourceLabel: price ? sourceLabel(language, price.source) : null,
      };
    }),
  };
}

/** Makes sure every instrument of the contract exists with its price scale (idempotent). */
export async function ensureInstruments(db: Db): Promise<void> {
  await db
    .insert(instruments)
    .values(INSTRUMENT_SYMBOLS.map((symbol) => ({ symbol, base: INSTRUMENTS[symbol].base, quote: INSTRUMENTS[symbol].quote, priceScale: INSTRUMENTS[symbol].priceScale })))
    .onConflictDoNothing();
  // The price scale is part of the instrument: a mismatch would misread every recorded tick.
  const stored = await db.select().from(instruments);
  for (const row of stored) {
    if (isInstrumentSymbol(row.symbol) && INSTRUMENTS[row.symbol].priceScale !== row.priceScale) {
      throw new Error(`instrument ${row.symbol} is stored with price scale ${row.priceScale} but the contract says ${INSTRUMENTS[row.symbol].priceScale}`);
    }
  }
}
