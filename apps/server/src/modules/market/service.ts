import {
  type Candle,
  type Favorites,
  type Instrument,
  type InstrumentSymbol,
  INSTRUMENTS,
  INSTRUMENT_SYMBOLS,
  KLINE_INTERVAL_MS,
  type KlineInterval,
  type Klines,
  type KlinesQuery,
  PRICE_MAX_AGE_MS,
  type MarketPrices,
  SPARKLINE_POINTS,
  type Sparkline,
  type Ticker,
  instrumentOf,
  isInstrumentSymbol,
} from '@tradewind/contract/market';
import type { AdminInstrument, InstrumentSave } from '@tradewind/contract/catalog';
import type { Language } from '@tradewind/contract/languages';
import { formatAmount } from '@tradewind/contract/money';
import type { SourceQuote } from '@tradewind/contract/price-index';
import type { AssetCode } from '@tradewind/contract/wallet';
import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { MarketConfig } from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { VOLUME_SCALE } from './feed.ts';
import { type SourcePlan, sourcePlan } from './sources.ts';
import {
  type TickComponent,
  favorites,
  instruments,
  tickProofs as tickProofsTable,
  ticks,
} from './tables.ts';

/** A recorded tick, as the modules that price things use it. */
export interface RecordedPrice {
  tickId: number;
  instrument: InstrumentSymbol;
  /** Integer at the instrument's price scale. */
  priceMinor: bigint;
  priceScale: number;
  ts: Date;
  source: string;
  /** The source quotes the price is the index of (null: the one source quoted it exactly then; absent: not read). */
  components?: TickComponent[] | null;
}

export const priceText = (price: RecordedPrice) => formatAmount(price.priceMinor, price.priceScale);

function toRecorded(row: {
  id: number;
  instrument: string;
  priceMinor: bigint;
  ts: Date;
  source: string;
  components: TickComponent[] | null;
}): RecordedPrice | null {
  if (!isInstrumentSymbol(row.instrument)) return null;
  return {
    tickId: row.id,
    instrument: row.instrument,
    priceMinor: row.priceMinor,
    priceScale: INSTRUMENTS[row.instrument].priceScale,
    ts: row.ts,
    source: row.source,
    components: row.components,
  };
}

const tickColumns = {
  id: ticks.id,
  instrument: ticks.instrument,
  priceMinor: ticks.priceMinor,
  ts: ticks.ts,
  source: ticks.source,
  components: ticks.components,
};

/**
 * The latest tick of an instrument at or before `now`, if it is at most 5 s old; otherwise
 * nothing. A stale price is never returned: whoever asks must refuse to act instead.
 */
export async function latestPrice(
  db: Executor,
  instrument: InstrumentSymbol,
  now: Date,
): Promise<RecordedPrice | null> {
  const [row] = await db
    .select(tickColumns)
    .from(ticks)
    .where(
      and(
        eq(ticks.instrument, instrument),
        lte(ticks.ts, now),
        gte(ticks.ts, new Date(now.getTime() - PRICE_MAX_AGE_MS)),
      ),
    )
    .orderBy(desc(ticks.ts))
    .limit(1);
  return row ? toRecorded(row) : null;
}

/** The fresh latest tick of every instrument that has one. */
export async function latestPrices(
  db: Executor,
  now: Date,
): Promise<Map<InstrumentSymbol, RecordedPrice>> {
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
  const rows = await db
    .selectDistinctOn([ticks.instrument], tickColumns)
    .from(ticks)
    .orderBy(ticks.instrument, desc(ticks.ts));
  return new Map(
    rows
      .filter((row) => isInstrumentSymbol(row.instrument))
      .map((row) => [row.instrument as InstrumentSymbol, row.priceMinor]),
  );
}

/**
 * Prices in USDT for the wallet's valuation at `now`: USDT is 1, a coin is its fresh
 * recorded price, anything else is unpriced (never a stale or guessed price).
 */
export async function recordedPriceOf(
  db: Executor,
  now: Date,
): Promise<(asset: AssetCode) => string | null> {
  const prices = await latestPrices(db, now);
  return (asset) => {
    if (asset === 'USDT') return '1';
    const instrument = instrumentOf(asset);
    const price = instrument ? prices.get(instrument) : undefined;
    return price ? priceText(price) : null;
  };
}

/**
 * A tick's quotes as the index rule reads them (market_ticks.components decoded): its
 * components, or, none kept, the tick itself from its one source at its second.
 */
export function tickQuotes(tick: {
  ts: Date;
  priceMinor: bigint;
  source: string;
  components?: TickComponent[] | null;
}): SourceQuote[] {
  const tsMs = tick.ts.getTime();
  if (!tick.components)
    return [
      { source: tick.source, priceMinor: tick.priceMinor, sourceTimeMs: tsMs, receivedAtMs: tsMs },
    ];
  return tick.components.map(([source, price, sourceOffsetMs, receivedOffsetMs]) => ({
    source,
    priceMinor: BigInt(price),
    sourceTimeMs: tsMs + sourceOffsetMs,
    receivedAtMs: tsMs + receivedOffsetMs,
  }));
}

/** The signed updates kept with a tick, by source (Pyth's, for the browser to check). */
export async function tickProofs(
  db: Executor,
  tickId: number,
): Promise<{ source: string; feedId: string; update: string }[]> {
  return db
    .select({
      source: tickProofsTable.source,
      feedId: tickProofsTable.feedId,
      update: tickProofsTable.update,
    })
    .from(tickProofsTable)
    .where(eq(tickProofsTable.tickId, tickId))
    .orderBy(asc(tickProofsTable.source));
}

/** A tick's sources in words: an index of several reads "Binance + Pyth". */
export function sourceLabel(language: Language, source: string): string {
  return source
    .split('+')
    .map((one) => translate(language, `market.sources.${one}`))
    .join(' + ');
}

/** GET /market/prices: every wallet asset's crypto pair against USDT, with its fresh tick or nulls. */
export async function pricesView(
  db: Executor,
  now: Date,
  language: Language,
): Promise<MarketPrices> {
  const prices = await latestPrices(db, now);
  return {
    items: INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto').map(
      (instrument) => {
        const price = prices.get(instrument);
        return {
          asset: INSTRUMENTS[instrument].base,
          instrument,
          price: price ? priceText(price) : null,
          ts: price ? price.ts.toISOString() : null,
          source: price?.source ?? null,
          sourceLabel: price ? sourceLabel(language, price.source) : null,
        };
      },
    ),
  };
}

/**
 * Makes sure every instrument of the contract exists with its price scale and kind
 * (idempotent). A new instrument starts with the contract's marks and order; after that
 * they are operators' settings and are left as they are.
 */
export async function ensureInstruments(db: Db): Promise<void> {
  await db
    .insert(instruments)
    .values(
      INSTRUMENT_SYMBOLS.map((symbol, index) => {
        const def = INSTRUMENTS[symbol];
        return {
          symbol,
          base: def.base,
          quote: def.quote,
          priceScale: def.priceScale,
          kind: def.kind,
          tradable: def.tradable,
          recommended: def.recommended,
          popular: def.popular,
          sortOrder: index,
        };
      }),
    )
    .onConflictDoUpdate({
      target: instruments.symbol,
      set: { kind: sql`excluded.kind`, base: sql`excluded.base`, quote: sql`excluded.quote` },
    });
  // The price scale is part of the instrument: a mismatch would misread every recorded tick.
  const stored = await db.select().from(instruments);
  for (const row of stored) {
    if (isInstrumentSymbol(row.symbol) && INSTRUMENTS[row.symbol].priceScale !== row.priceScale) {
      throw new Error(
        `instrument ${row.symbol} is stored with price scale ${row.priceScale} but the contract says ${INSTRUMENTS[row.symbol].priceScale}`,
      );
    }
  }
}

/**
 * Whether orders may be placed on an instrument here: it is marked tradable, and a
 * configured source prices it — a real one, or in demo mode the walk. Outside demo mode an
 * instrument no real source covers has no price, and real money never settles on a made-up
 * one. (An order also needs a fresh price at the instant: see `latestPrice`.)
 */
export function isTradable(
  symbol: InstrumentSymbol,
  market: Pick<MarketConfig, 'sources' | 'simulated'> & {
    pythFeedIds?: MarketConfig['pythFeedIds'];
  },
): boolean {
  return INSTRUMENTS[symbol].tradable && planOf(market).byInstrument[symbol].length > 0;
}

/** Coverage follows the configuration alone: one plan per configuration, off the order path. */
const plans = new WeakMap<object, SourcePlan>();
function planOf(market: Parameters<typeof sourcePlan>[0]): SourcePlan {
  let plan = plans.get(market);
  if (!plan) {
    plan = sourcePlan(market);
    plans.set(market, plan);
  }
  return plan;
}

type InstrumentRow = typeof instruments.$inferSelect;

/** The instruments of the contract as stored, in the operators' order. */
async function instrumentRows(
  db: Executor,
): Promise<(InstrumentRow & { symbol: InstrumentSymbol })[]> {
  const rows = await db
    .select()
    .from(instruments)
    .orderBy(asc(instruments.sortOrder), asc(instruments.symbol));
  return rows.filter((row): row is InstrumentRow & { symbol: InstrumentSymbol } =>
    isInstrumentSymbol(row.symbol),
  );
}

/** GET /market/instruments: every instrument in the operators' order, its name in the request's language. */
export async function instrumentsView(
  db: Executor,
  language: Language,
  market: Pick<MarketConfig, 'sources' | 'simulated'> & {
    pythFeedIds?: MarketConfig['pythFeedIds'];
  },
): Promise<{ items: Instrument[] }> {
  const rows = await instrumentRows(db);
  return {
    items: rows.map((row) => {
      const { kind, base, quote, priceScale } = INSTRUMENTS[row.symbol];
      const tradable = row.tradable && isTradable(row.symbol, market);
      const name = row.displayName ?? translate(language, `market.instruments.${row.symbol}`);
      return {
        symbol: row.symbol,
        kind,
        base,
        quote,
        name,
        priceScale,
        tradable,
        recommended: row.recommended,
        popular: row.popular,
      };
    }),
  };
}

const adminInstrumentView = (
  row: InstrumentRow & { symbol: InstrumentSymbol },
  language: Language = 'en',
): AdminInstrument => {
  const { kind, base, quote, priceScale } = INSTRUMENTS[row.symbol];
  return {
    symbol: row.symbol,
    kind,
    base,
    quote,
    priceScale,
    defaultName: translate(language, `market.instruments.${row.symbol}`),
    displayName: row.displayName,
    tradable: row.tradable,
    recommended: row.recommended,
    popular: row.popular,
    sort: row.sortOrder,
  };
};

/** Every instrument with its operator settings (the console's Instruments page), default names in `language`. */
export async function listAdminInstruments(
  db: Executor,
  language: Language,
): Promise<AdminInstrument[]> {
  return (await instrumentRows(db)).map((row) => adminInstrumentView(row, language));
}

/**
 * Saves an instrument's marks, display name and order, audit-logged with before and after.
 * There is no price here: prices are recorded by the feed recorder only.
 */
export async function saveInstrument(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: InstrumentSave,
): Promise<AdminInstrument> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(instruments)
      .where(eq(instruments.symbol, input.symbol))
      .for('update');
    if (!before || !isInstrumentSymbol(before.symbol))
      throw new AppError('NOT_FOUND', {}, 404, 'symbol');
    const [after] = await tx
      .update(instruments)
      .set({
        displayName: input.displayName,
        tradable: input.tradable,
        recommended: input.recommended,
        popular: input.popular,
        sortOrder: input.sort,
      })
      .where(eq(instruments.symbol, input.symbol))
      .returning();
    if (!after) throw new Error('instrument update returned no row');
    const view = {
      before: adminInstrumentView({ ...before, symbol: before.symbol }),
      after: adminInstrumentView({ ...after, symbol: input.symbol }),
    };
    await audit(tx, now, operator, {
      action: 'instrument.update',
      targetType: 'instrument',
      targetId: input.symbol,
      ...view,
    });
    return view.after;
  });
}

// ---------------------------------------------------------------------------------------
// Tickers: the fresh price with rolling 24 h statistics.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Weeks open on Monday 00:00 UTC; every shorter interval divides a week, so one origin serves all. */
export const CANDLE_ORIGIN_MS = Date.UTC(2000, 0, 3);
const CANDLE_ORIGIN_SQL = sql.raw(`timestamptz '2000-01-03 00:00:00+00'`);

/**
 * (last − open) / open × 100 with two decimals, rounded half away from zero, in integers:
 * "1.25", "-0.40", "0.00".
 */
export function changePct(lastMinor: bigint, openMinor: bigint): string {
  if (openMinor <= 0n) throw new Error('an open price is always positive');
  const scaled = (lastMinor - openMinor) * 10_000n;
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const basisPoints = (magnitude * 2n + openMinor) / (openMinor * 2n);
  const text = `${basisPoints / 100n}.${(basisPoints % 100n).toString().padStart(2, '0')}`;
  return negative && basisPoints !== 0n ? `-${text}` : text;
}

interface TickerRow {
  instrument: string;
  price: string;
  ts: Date | string;
  source: string;
  open: string | null;
  high: string | null;
  low: string | null;
  volume: string | null;
}

const emptyTicker = (symbol: string): Ticker => ({
  symbol,
  price: null,
  ts: null,
  source: null,
  sourceLabel: null,
  open24h: null,
  high24h: null,
  low24h: null,
  volume24h: null,
  changePct: null,
});

/**
 * The tickers of `symbols` (default: all) at `now`, in one query: each instrument's fresh
 * latest tick (at most 5 s old, as `latestPrice`) and the rolling 24 h over its 1-minute
 * candles. Without a fresh tick an instrument's ticker is all nulls: no stale price.
 */
export async function tickers(
  db: Executor,
  now: Date,
  language: Language,
  symbols: readonly InstrumentSymbol[] = INSTRUMENT_SYMBOLS,
): Promise<Ticker[]> {
  if (symbols.length === 0) return [];
  const list = sql`array[${sql.join(
    symbols.map((s) => sql`${s}`),
    sql`, `,
  )}]::text[]`;
  const rows = await queryRows<TickerRow>(
    db,
    sql`with latest as (
          select distinct on (instrument) instrument, price_minor, ts, source
          from market_ticks
          where instrument = any(${list}) and ts <= ${now.toISOString()}::timestamptz and ts >= ${new Date(now.getTime() - PRICE_MAX_AGE_MS).toISOString()}::timestamptz
          order by instrument, ts desc
        ),
        day as (
          select instrument, (array_agg(open_minor order by open_time))[1] as open_minor, max(high_minor) as high_minor, min(low_minor) as low_minor, sum(volume_minor) as volume_minor
          from market_candles_1m
          where instrument = any(${list}) and open_time >= ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz and open_time <= ${now.toISOString()}::timestamptz
            and instrument in (select instrument from latest)
          group by instrument
        )
        select l.instrument, l.price_minor::text as price, l.ts, l.source, d.open_minor::text as open, d.high_minor::text as high, d.low_minor::text as low, d.volume_minor::text as volume
        from latest l left join day d on d.instrument = l.instrument`,
  );
  const byInstrument = new Map(rows.map((row) => [row.instrument, row]));
  return symbols.map((symbol) => {
    const row = byInstrument.get(symbol);
    if (!row) return emptyTicker(symbol);
    const scale = INSTRUMENTS[symbol].priceScale;
    const price = BigInt(row.price);
    const open = row.open === null ? null : BigInt(row.open);
    return {
      symbol,
      price: formatAmount(price, scale),
      ts: new Date(row.ts).toISOString(),
      source: row.source,
      sourceLabel: sourceLabel(language, row.source),
      open24h: open === null ? null : formatAmount(open, scale),
      high24h: row.high === null ? null : formatAmount(BigInt(row.high), scale),
      low24h: row.low === null ? null : formatAmount(BigInt(row.low), scale),
      volume24h: row.volume === null ? '0' : formatAmount(BigInt(row.volume), VOLUME_SCALE),
      changePct: open === null ? null : changePct(price, open),
    };
  });
}

/**
 * Every instrument's sparkline at `now`: the close of each of the last 24 hours that has a
 * 1-minute candle, oldest first, in one query over the candles (ticks are pruned, candles kept).
 */
export async function sparklines(db: Executor, now: Date): Promise<Sparkline[]> {
  const from = new Date(
    Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (SPARKLINE_POINTS - 1) * HOUR_MS,
  );
  const rows = await queryRows<{ instrument: string; closes: string[] }>(
    db,
    sql`select instrument, array_agg(close_minor::text order by hour) as closes
        from (
          select instrument, date_bin('1 hour', open_time, timestamptz '2000-01-03 00:00:00+00') as hour,
                 (array_agg(close_minor order by open_time desc))[1] as close_minor
          from market_candles_1m
          where open_time >= ${from.toISOString()}::timestamptz and open_time <= ${now.toISOString()}::timestamptz
          group by 1, 2
        ) h
        group by instrument`,
  );
  const byInstrument = new Map(rows.map((row) => [row.instrument, row.closes]));
  return INSTRUMENT_SYMBOLS.map((symbol) => ({
    symbol,
    closes: (byInstrument.get(symbol) ?? []).map((close) =>
      formatAmount(BigInt(close), INSTRUMENTS[symbol].priceScale),
    ),
  }));
}

export async function ticker(
  db: Executor,
  now: Date,
  language: Language,
  symbol: InstrumentSymbol,
): Promise<Ticker> {
  const [one] = await tickers(db, now, language, [symbol]);
  return one ?? emptyTicker(symbol);
}

// ---------------------------------------------------------------------------------------
// Candles: 1-minute rows as recorded, longer intervals aggregated at query time.

export const DEFAULT_KLINE_LIMIT = 300;

/** The open time of the `interval` candle holding `ms` (weeks from Monday 00:00 UTC). */
export function candleOpenMs(ms: number, interval: KlineInterval): number {
  const size = KLINE_INTERVAL_MS[interval];
  return CANDLE_ORIGIN_MS + Math.floor((ms - CANDLE_ORIGIN_MS) / size) * size;
}

interface CandleRow {
  t: Date | string;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

function toCandle(row: CandleRow, scale: number): Candle {
  return {
    t: new Date(row.t).getTime(),
    o: formatAmount(BigInt(row.o), scale),
    h: formatAmount(BigInt(row.h), scale),
    l: formatAmount(BigInt(row.l), scale),
    c: formatAmount(BigInt(row.c), scale),
    v: formatAmount(BigInt(row.v), VOLUME_SCALE),
  };
}

const intervalSql = (interval: KlineInterval) =>
  sql.raw(`interval '${KLINE_INTERVAL_MS[interval] / 1000} seconds'`);

/** The aggregate of 1-minute candles into one candle: first open, highest high, lowest low, last close, summed volume. */
const AGGREGATE = sql.raw(
  `(array_agg(c.open_minor order by c.open_time))[1]::text as o, max(c.high_minor)::text as h, min(c.low_minor)::text as l, (array_agg(c.close_minor order by c.open_time desc))[1]::text as c, sum(c.volume_minor)::text as v`,
);

/** Gaps (a feed outage, a closed market) are jumped over at most this many times per request. */
const KLINE_GAP_JUMPS = 8;

/**
 * GET /market/klines: up to `limit` candles opening before `before` (default: up to now,
 * the current candle included), oldest first. Each query reads only the 1-minute rows of
 * a window sized for the candles still wanted (the primary key's range); where the window
 * comes up short because of a gap, the next one starts at the nearest older candle.
 */
export async function klines(db: Executor, now: Date, query: KlinesQuery): Promise<Klines> {
  const symbol = query.symbol as InstrumentSymbol;
  const limit = query.limit ?? DEFAULT_KLINE_LIMIT;
  const size = KLINE_INTERVAL_MS[query.interval];
  const scale = INSTRUMENTS[symbol].priceScale;
  // Nothing opens after now: a later `before` (up to any integer the query allows) means now.
  const before = Math.min(query.before ?? Number.POSITIVE_INFINITY, now.getTime() + 1);
  let lastOpen = candleOpenMs(before - 1, query.interval);
  const items: Candle[] = [];
  for (let jump = 0; jump <= KLINE_GAP_JUMPS && items.length < limit; jump++) {
    const wanted = limit - items.length;
    const from = new Date(lastOpen - (wanted - 1) * size);
    const rows = await queryRows<CandleRow>(
      db,
      sql`select date_bin(${intervalSql(query.interval)}, c.open_time, ${CANDLE_ORIGIN_SQL}) as t, ${AGGREGATE}
          from market_candles_1m c
          where c.instrument = ${symbol} and c.open_time >= ${from.toISOString()}::timestamptz and c.open_time < ${new Date(lastOpen + size).toISOString()}::timestamptz
          group by 1 order by 1`,
    );
    items.unshift(...rows.map((row) => toCandle(row, scale)));
    if (rows.length === wanted) break;
    const [older] = await queryRows<{ t: Date | string | null }>(
      db,
      sql`select max(open_time) as t from market_candles_1m where instrument = ${symbol} and open_time < ${from.toISOString()}::timestamptz`,
    );
    if (!older?.t) break;
    lastOpen = candleOpenMs(new Date(older.t).getTime(), query.interval);
  }
  return { symbol, interval: query.interval, items };
}

/**
 * The current candle (the one holding `at`) of each requested instrument and interval, in
 * one query; pairs without any 1-minute candle in their window are left out.
 */
export async function currentCandles(
  db: Executor,
  at: Date,
  pairs: readonly { symbol: InstrumentSymbol; interval: KlineInterval }[],
): Promise<{ symbol: InstrumentSymbol; interval: KlineInterval; candle: Candle }[]> {
  if (pairs.length === 0) return [];
  const windows = sql.join(
    pairs.map(({ symbol, interval }) => {
      const open = candleOpenMs(at.getTime(), interval);
      return sql`(${symbol}::text, ${interval}::text, ${new Date(open).toISOString()}::timestamptz, ${new Date(open + KLINE_INTERVAL_MS[interval]).toISOString()}::timestamptz)`;
    }),
    sql`, `,
  );
  const rows = await queryRows<CandleRow & { instrument: string; interval: KlineInterval }>(
    db,
    sql`select w.instrument, w.interval, min(w.open_from) as t, ${AGGREGATE}
        from (values ${windows}) as w(instrument, interval, open_from, open_to)
        join market_candles_1m c on c.instrument = w.instrument and c.open_time >= w.open_from and c.open_time < w.open_to
        group by w.instrument, w.interval`,
  );
  return rows
    .filter((row) => isInstrumentSymbol(row.instrument))
    .map((row) => {
      const symbol = row.instrument as InstrumentSymbol;
      return {
        symbol,
        interval: row.interval,
        candle: toCandle(row, INSTRUMENTS[symbol].priceScale),
      };
    });
}

// ---------------------------------------------------------------------------------------
// Favourites.

/** More than there are instruments today; a limit all the same (everything that grows has one). */
export const FAVORITES_MAX = 100;

export async function listFavorites(db: Executor, userId: number): Promise<Favorites> {
  const rows = await db
    .select({ instrument: favorites.instrument })
    .from(favorites)
    .where(eq(favorites.userId, userId))
    .orderBy(asc(favorites.createdAt), asc(favorites.instrument));
  return { symbols: rows.map((row) => row.instrument) };
}

/**
 * Marks or unmarks a favourite; repeating either is harmless. Raises FAVORITES_LIMIT when
 * the user already has `max` favourites.
 */
export async function setFavorite(
  db: Db,
  now: Date,
  userId: number,
  symbol: InstrumentSymbol,
  favorite: boolean,
  max = FAVORITES_MAX,
): Promise<Favorites> {
  if (!favorite) {
    await db
      .delete(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.instrument, symbol)));
    return listFavorites(db, userId);
  }
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ n: count() })
      .from(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.instrument, symbol)));
    if ((existing?.n ?? 0) > 0) return;
    const [total] = await tx
      .select({ n: count() })
      .from(favorites)
      .where(eq(favorites.userId, userId));
    if ((total?.n ?? 0) >= max) throw new AppError('FAVORITES_LIMIT', { max });
    await tx
      .insert(favorites)
      .values({ userId, instrument: symbol, createdAt: now })
      .onConflictDoNothing();
  });
  return listFavorites(db, userId);
}
