import { setTimeout as pause } from 'node:timers/promises';
import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import type { FastifyBaseLogger } from 'fastify';
import { backoffDelayMs } from '#platform/backoff.ts';
import type { RealPriceSource } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { parseDecimal } from './binance.ts';
import { VOLUME_SCALE } from './feed.ts';
import {
  DAY_MS,
  type HistoryCandle,
  MINUTE_MS,
  insertHistoryCandles,
  isValidCandle,
  oldestCandle,
} from './history-candles.ts';
import { type PythFeedMap, pythFeedsAt } from './pyth/feed-ids.ts';

/**
 * Real market history (issue 32): at first start, every instrument a real source prices gets
 * `days` of one-minute candles before its first recorded minute, read from that source's own
 * history API, so its chart, 24 h figures and sparkline show the market's real past from the
 * first screen. Binance's klines for the crypto pairs (USDT prices and real traded volume);
 * Pyth's History API for the rest (and for crypto when Binance is not a source). Candles only:
 * settlement reads recorded ticks, and no tick is written.
 *
 * Written back from the oldest candle there is, one page per request, each page in its own
 * statement, so a restart goes on where the last one stopped and a page that is already there
 * changes nothing. Requests are paced per source, a refusal for too many requests waits as long
 * as the source asks, and only the process that records prices fetches: several workers do not
 * multiply the requests.
 */

/** Why a history request failed. */
export class HistoryRequestError extends Error {
  constructor(
    message: string,
    /** The HTTP status; 0 when no answer came (network, timeout) or the answer was unusable. */
    readonly status: number,
    options: { retryAfterMs?: number; unusableReply?: boolean } = {},
  ) {
    super(message);
    this.retryAfterMs = options.retryAfterMs;
    this.unusableReply = options.unusableReply ?? false;
  }

  /** The source's Retry-After, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /** An answer that came but cannot be read (not JSON, not the format, the source's own error). */
  readonly unusableReply: boolean;

  /** Worth asking again: no answer, too many requests (429, Binance's 418 ban), or a server error. */
  get retryable(): boolean {
    if (this.unusableReply) return false;
    return this.status === 0 || this.status === 429 || this.status === 418 || this.status >= 500;
  }
}

/** A page of a source's reply: the valid candles, and how many rows were refused as malformed. */
export interface HistoryPage {
  candles: HistoryCandle[];
  rejected: number;
}

export interface HistorySource {
  readonly name: RealPriceSource;
  /** Minutes one request asks for. */
  readonly pageMinutes: number;
  /** Least time between two requests' starts. */
  readonly spacingMs: number;
  /** The source's symbol for an instrument's minutes at `atMs`, or null when it has none then. */
  symbolAt(symbol: InstrumentSymbol, atMs: number): string | null;
  /** The candles of [fromMs, toMs) (whole minutes). Throws HistoryRequestError. */
  fetchPage(
    symbol: InstrumentSymbol,
    sourceSymbol: string,
    fromMs: number,
    toMs: number,
    signal: AbortSignal,
  ): Promise<HistoryPage>;
}

/** A float the source sent (Pyth's JSON numbers) to an exact integer at `scale`, through its shortest decimal text. */
function numberToMinor(value: unknown, scale: number): bigint | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  return parseDecimal(/e/i.test(text) ? value.toFixed(20) : text, scale);
}

/** A candle from a source's row, or null when a figure is missing or it breaks the candle rules. */
function candleOf(
  openTimeMs: unknown,
  prices: readonly (bigint | null)[],
  volume: bigint | null,
): HistoryCandle | null {
  if (typeof openTimeMs !== 'number' || volume === null || prices.length !== 4) return null;
  if (prices.includes(null)) return null;
  const [open, high, low, close] = prices as [bigint, bigint, bigint, bigint];
  const candle = { openTimeMs, open, high, low, close, volume };
  return isValidCandle(candle) ? candle : null;
}

/**
 * Binance's `GET /api/v3/klines` reply: an array of
 * `[openTime ms, open, high, low, close, volume, closeTime, quoteVolume, trades, …]`, prices
 * and volume as decimal strings. A row that is malformed or breaks the candle rules is refused
 * and counted; a reply that is not an array throws.
 */
export function parseBinanceKlines(symbol: InstrumentSymbol, body: unknown): HistoryPage {
  if (!Array.isArray(body))
    throw new HistoryRequestError('Binance klines: the reply is not an array', 0, {
      unusableReply: true,
    });
  const scale = INSTRUMENTS[symbol].priceScale;
  const candles: HistoryCandle[] = [];
  let rejected = 0;
  for (const row of body as unknown[]) {
    const [openTime, open, high, low, close, volume] = Array.isArray(row) ? row : [];
    const prices = [open, high, low, close].map((value) =>
      typeof value === 'string' ? parseDecimal(value, scale) : null,
    );
    const volumeMinor = typeof volume === 'string' ? parseDecimal(volume, VOLUME_SCALE) : null;
    const candle = candleOf(openTime, prices, volumeMinor);
    if (candle) candles.push(candle);
    else rejected++;
  }
  return { candles, rejected };
}

/**
 * Pyth's History API reply (TradingView's UDF history format):
 * `{ s: "ok" | "no_data" | "error", t: [s], o: [], h: [], l: [], c: [], v: [], errmsg? }`, prices
 * as JSON numbers. `no_data` (a closed market, or before Pyth's archive) is an empty page;
 * `error` throws with Pyth's message. Pyth publishes no traded volume: volume is 0, as for its
 * live prices.
 */
export function parsePythHistory(symbol: InstrumentSymbol, body: unknown): HistoryPage {
  const reply = (body ?? {}) as Record<string, unknown>;
  if (reply.s === 'no_data') return { candles: [], rejected: 0 };
  if (reply.s !== 'ok') {
    const message = typeof reply.errmsg === 'string' ? reply.errmsg.slice(0, 200) : 'no message';
    throw new HistoryRequestError(`Pyth history: status ${String(reply.s)} (${message})`, 0, {
      unusableReply: true,
    });
  }
  const columns = ['t', 'o', 'h', 'l', 'c'].map((key) => reply[key]);
  if (!columns.every(Array.isArray))
    throw new HistoryRequestError('Pyth history: t, o, h, l and c must be arrays', 0, {
      unusableReply: true,
    });
  const [t, o, h, l, c] = columns as unknown[][];
  const scale = INSTRUMENTS[symbol].priceScale;
  const candles: HistoryCandle[] = [];
  let rejected = 0;
  for (let i = 0; i < (t?.length ?? 0); i++) {
    const seconds = t?.[i];
    const prices = [o, h, l, c].map((column) => numberToMinor(column?.[i], scale));
    const candle = candleOf(typeof seconds === 'number' ? seconds * 1000 : null, prices, 0n);
    if (candle) candles.push(candle);
    else rejected++;
  }
  return { candles, rejected };
}

type Fetch = typeof fetch;

/** `path` under a base URL that may or may not end in a slash, with a query. */
function endpoint(base: string, path: string, query: Record<string, string>): URL {
  const url = new URL(path, base.replace(/\/?$/, '/'));
  url.search = new URLSearchParams(query).toString();
  return url;
}

/** One GET with a timeout, as JSON; a non-2xx status throws with the source's Retry-After. */
async function getJson(
  fetchFn: Fetch,
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new HistoryRequestError(`${url.host}: ${(error as Error).message}`, 0);
  }
  if (!response.ok) {
    await response.body?.cancel();
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new HistoryRequestError(
      `${url.host}${url.pathname} answered ${response.status}`,
      response.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {},
    );
  }
  try {
    return await response.json();
  } catch {
    throw new HistoryRequestError(`${url.host}${url.pathname}: the reply is not JSON`, 0, {
      unusableReply: true,
    });
  }
}

export interface SourceHistoryOptions {
  baseUrl: string;
  fetch?: Fetch;
  timeoutMs?: number;
  spacingMs?: number;
}

/**
 * Binance's public klines (no key; `data-api.binance.vision` serves market data only). A page
 * is 1,000 minutes, the most one request returns; each request weighs 2 of the 6,000 an IP
 * may use a minute, and four a second use 480.
 */
export function binanceHistory(options: SourceHistoryOptions): HistorySource {
  const fetchFn = options.fetch ?? fetch;
  return {
    name: 'binance',
    pageMinutes: 1000,
    spacingMs: options.spacingMs ?? 250,
    symbolAt: (symbol) => (INSTRUMENTS[symbol].kind === 'crypto' ? symbol : null),
    async fetchPage(symbol, sourceSymbol, fromMs, toMs, signal) {
      const url = endpoint(options.baseUrl, 'api/v3/klines', {
        symbol: sourceSymbol,
        interval: '1m',
        startTime: String(fromMs),
        endTime: String(toMs - 1),
        limit: '1000',
      });
      const body = await getJson(fetchFn, url, {}, signal, options.timeoutMs ?? 15_000);
      return parseBinanceKlines(symbol, body);
    },
  };
}

/** Pyth's symbols as its History API takes them (`Crypto.BTC/USD`, `Commodities.WTIZ6/USD`); an operator's PYTH_FEED_IDS replacement has none. */
const PYTH_SYMBOL = /^[A-Z][A-Za-z]*\.\S+$/;

/**
 * Pyth's History API (`https://pyth.dourolabs.app/v1/{channel}/history`, which replaced the
 * Benchmarks TradingView shim on 2026-08-18), with the Pyth API key as a bearer token. A
 * commodity's minutes come from the futures month that was front at that time. A page is 12
 * hours; two requests a second.
 */
export function pythHistory(
  options: SourceHistoryOptions & {
    apiKey?: string;
    /** The feed map as it is now: the built-in months with those Hermes listed since (contracts.ts). */
    feeds: () => PythFeedMap;
  },
): HistorySource {
  const fetchFn = options.fetch ?? fetch;
  return {
    name: 'pyth',
    pageMinutes: 720,
    spacingMs: options.spacingMs ?? 500,
    symbolAt(symbol, atMs) {
      for (const feed of pythFeedsAt(atMs, options.feeds()).values())
        if (feed.instrument === symbol)
          return PYTH_SYMBOL.test(feed.pythSymbol) ? feed.pythSymbol : null;
      return null;
    },
    async fetchPage(symbol, sourceSymbol, fromMs, toMs, signal) {
      const url = endpoint(options.baseUrl, 'history', {
        symbol: sourceSymbol,
        resolution: '1',
        from: String(Math.floor(fromMs / 1000)),
        to: String(Math.floor(toMs / 1000) - 1),
      });
      const headers: Record<string, string> = options.apiKey
        ? { authorization: `Bearer ${options.apiKey}` }
        : {};
      const body = await getJson(fetchFn, url, headers, signal, options.timeoutMs ?? 15_000);
      return parsePythHistory(symbol, body);
    },
  };
}

/** What a backfill run did, per instrument. */
export interface SourceHistoryResult {
  symbol: InstrumentSymbol;
  source: RealPriceSource;
  candles: number;
  requests: number;
  rejected: number;
  /** Why it stopped before reaching back `days` (a refusal, or too many failures), if it did. */
  stopped?: string;
}

export interface BackfillSourceHistoryOptions {
  /** Each instrument with the source its history is read from. */
  plan: readonly { symbol: InstrumentSymbol; source: HistorySource }[];
  now: Date;
  days: number;
  /** Whether this process records prices: only the recorder fetches; the others wait. */
  isLeading?: () => boolean;
  signal: AbortSignal;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Tries per page before the instrument is left for the next start. */
  attempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** How often a process that does not record checks again. */
  followerPollMs?: number;
}

/**
 * Writes each planned instrument's real history back to `days` before `now`, newest page first.
 * Resolves with what it did once every instrument is done or given up (a source that refuses
 * the symbol or the key, or fails `attempts` times running); an abort (the app closing) stops
 * it between requests.
 */
export async function backfillSourceHistory(
  db: Db,
  options: BackfillSourceHistoryOptions,
): Promise<SourceHistoryResult[]> {
  const { signal } = options;
  const results: SourceHistoryResult[] = [];
  if (options.days <= 0) return results;
  const firstMinute = Math.floor(options.now.getTime() / MINUTE_MS) * MINUTE_MS;
  const target = firstMinute - options.days * DAY_MS;
  const attempts = options.attempts ?? 5;
  const backoff = options.backoff ?? { baseMs: 2_000, maxMs: 120_000 };
  const lastRequestAt = new Map<string, number>();
  // Rejects at once when the app closes; keeps no process alive.
  const sleep = (ms: number) => pause(ms, undefined, { signal, ref: false });

  const request = async (
    source: HistorySource,
    call: () => Promise<HistoryPage>,
  ): Promise<HistoryPage> => {
    const wait = (lastRequestAt.get(source.name) ?? 0) + source.spacingMs - Date.now();
    if (wait > 0) await sleep(wait);
    lastRequestAt.set(source.name, Date.now());
    return call();
  };

  for (const { symbol, source } of options.plan) {
    const result: SourceHistoryResult = {
      symbol,
      source: source.name,
      candles: 0,
      requests: 0,
      rejected: 0,
    };
    results.push(result);
    let cursor = firstMinute;
    let failures = 0;
    try {
      while (!signal.aborted) {
        if (options.isLeading && !options.isLeading()) {
          await sleep(options.followerPollMs ?? 1_000);
          continue;
        }
        // Back from the oldest candle there is (another process may have gone further), or
        // from where the last page ended when a page had none (a closed market).
        const oldest = await oldestCandle(db, symbol);
        cursor = Math.min(cursor, oldest?.openTimeMs ?? firstMinute);
        if (cursor <= target) break;
        const fromMs = Math.max(target, cursor - source.pageMinutes * MINUTE_MS);
        const sourceSymbol = source.symbolAt(symbol, fromMs);
        if (!sourceSymbol) {
          result.stopped = `${source.name} has no symbol for it at ${new Date(fromMs).toISOString()}`;
          break;
        }
        let page: HistoryPage;
        try {
          result.requests++;
          page = await request(source, () =>
            source.fetchPage(symbol, sourceSymbol, fromMs, cursor, signal),
          );
        } catch (error) {
          if (signal.aborted) break;
          const failure =
            error instanceof HistoryRequestError
              ? error
              : new HistoryRequestError((error as Error).message, 0);
          failures++;
          if (!failure.retryable || failures >= attempts) {
            result.stopped = failure.message;
            break;
          }
          const delay = failure.retryAfterMs ?? backoffDelayMs(backoff, failures - 1);
          options.log?.warn(
            { instrument: symbol, source: source.name, err: failure.message, retryInMs: delay },
            'market history: a request failed; trying again',
          );
          await sleep(delay);
          continue;
        }
        failures = 0;
        result.rejected += page.rejected;
        const inPage = page.candles.filter((c) => c.openTimeMs >= fromMs && c.openTimeMs < cursor);
        result.rejected += page.candles.length - inPage.length;
        await db.transaction((tx) => insertHistoryCandles(tx, symbol, inPage, 1));
        result.candles += inPage.length;
        cursor = fromMs;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    if (signal.aborted) return results;
    if (result.stopped)
      options.log?.warn(
        { ...result },
        'market history: stopped before reaching back the days asked; the next start goes on',
      );
    else if (result.requests > 0) options.log?.info({ ...result }, 'market history written');
  }
  return results;
}
