import { EventEmitter } from 'node:events';
import {
  INSTRUMENTS,
  INSTRUMENT_SYMBOLS,
  type InstrumentSymbol,
  isInstrumentSymbol,
} from '@tradewind/contract/market';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { backoffDelayMs } from '#platform/backoff.ts';
import type { Clock } from '#platform/clock.ts';
import { type FeedPrice, type MarketFeed, VOLUME_SCALE } from './feed.ts';

/** Binance's combined market-data stream (public, no key). */
export const BINANCE_STREAM_URL = 'wss://stream.binance.com:9443/stream';

/** The instruments Binance prices: its spot symbols are ours (BTCUSDT, …). The rest stay simulated. */
export const BINANCE_INSTRUMENTS = INSTRUMENT_SYMBOLS.filter(
  (symbol) => INSTRUMENTS[symbol].kind === 'crypto',
);

export function binanceStreamUrl(
  base: string,
  symbols: readonly InstrumentSymbol[] = BINANCE_INSTRUMENTS,
): string {
  return `${base}?streams=${symbols.map((symbol) => `${symbol.toLowerCase()}@aggTrade`).join('/')}`;
}

const DECIMAL = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

/**
 * A plain decimal string ("95000.01000000") to an integer at `scale`, exactly: digits
 * beyond the scale are rounded half up (instrument scales match the exchange's tick
 * sizes, so in practice those digits are zeros). Never through a float. Null if malformed.
 */
export function parseDecimal(text: string, scale: number): bigint | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const kept = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  const next = fraction.charCodeAt(scale) - 48;
  return next >= 5 ? kept + 1n : kept;
}

export interface AggTrade {
  symbol: InstrumentSymbol;
  priceMinor: bigint;
  /** Base units at VOLUME_SCALE. */
  quantityMinor: bigint;
  tradeTimeMs: number;
}

/**
 * One aggregate-trade message, raw (`{"e":"aggTrade",…}`) or wrapped by the combined
 * stream (`{"stream":"btcusdt@aggTrade","data":{…}}`). Anything else (subscription
 * replies, other events, unknown symbols, bad numbers) is null.
 */
export function parseAggTrade(text: string): AggTrade | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  const wrapped = message as { data?: unknown };
  const data = (
    wrapped && typeof wrapped === 'object' && 'data' in wrapped ? wrapped.data : message
  ) as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || data.e !== 'aggTrade') return null;
  const { s: symbol, p: price, q: quantity, T: tradeTime } = data;
  if (!isInstrumentSymbol(symbol) || INSTRUMENTS[symbol].kind !== 'crypto') return null;
  if (typeof price !== 'string' || typeof quantity !== 'string' || typeof tradeTime !== 'number')
    return null;
  const priceMinor = parseDecimal(price, INSTRUMENTS[symbol].priceScale);
  const quantityMinor = parseDecimal(quantity, VOLUME_SCALE);
  if (priceMinor === null || priceMinor <= 0n || quantityMinor === null) return null;
  return { symbol, priceMinor, quantityMinor, tradeTimeMs: tradeTime };
}

/** Schedules `fn` after `ms`; returns a cancel function. Injected by tests so nothing waits for real. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface BinanceFeedOptions {
  /** The combined-stream endpoint (MARKET_FEED_URL); `?streams=…` is appended. */
  url?: string;
  clock: Clock;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  schedule?: Schedule;
  random?: () => number;
  /** Reconnect delays: the ceiling doubles from `baseMs` to `maxMs`; a connection that lived `healthyMs` starts over at `baseMs`. */
  backoff?: { baseMs: number; maxMs: number; healthyMs: number };
  /** A connection silent for this long is dropped and reopened (the stream may stall without closing). */
  silenceMs?: number;
  /** A symbol's last trade older than this (by receipt) is not sampled. */
  maxTradeAgeMs?: number;
}

interface Heard {
  priceMinor: bigint;
  volumeMinor: bigint;
  /** The trade's own time (Binance's `T`). */
  tradeTimeMs: number;
  receivedAtMs: number;
}

export type BinanceFeedEvent = 'open' | 'close' | 'trade' | 'reconnect';

/**
 * Prices from Binance's public aggregate-trade stream for the crypto instruments: the
 * last trade price and the volume traded since the previous sample. Only what was heard
 * on the current connection is ever sampled: when the connection drops, those prices are
 * forgotten, the instruments go unrecorded, and nothing stale gets a fresh timestamp.
 * Each price carries its trade's own time; the index uses it only while it is fresh.
 * Commodities, forex and metals have no Binance market (other sources price them).
 *
 * Events (for logs and tests): `open`, `close`, `trade` (AggTrade), `reconnect` (delay ms).
 */
export class BinanceFeed extends EventEmitter implements MarketFeed {
  readonly source = 'binance';
  private readonly url: string;
  private readonly schedule: Schedule;
  private readonly random: () => number;
  private readonly backoff: { baseMs: number; maxMs: number; healthyMs: number };
  private readonly silenceMs: number;
  private readonly maxTradeAgeMs: number;
  private readonly heard = new Map<InstrumentSymbol, Heard>();
  private socket: WebSocket | null = null;
  private open = false;
  private stopped = true;
  private attempt = 0;
  private openedAtMs = 0;
  private lastMessageAtMs = 0;
  private cancelReconnect: (() => void) | null = null;
  private cancelWatchdog: (() => void) | null = null;

  constructor(private readonly options: BinanceFeedOptions) {
    super();
    this.url = binanceStreamUrl(options.url ?? BINANCE_STREAM_URL);
    this.schedule = options.schedule ?? realSchedule;
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: 30_000, healthyMs: 60_000 };
    this.silenceMs = options.silenceMs ?? 30_000;
    this.maxTradeAgeMs = options.maxTradeAgeMs ?? 60_000;
  }

  get connected(): boolean {
    return this.open;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelReconnect?.();
    this.cancelReconnect = null;
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    const socket = this.socket;
    this.socket = null;
    this.forget();
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    }
  }

  sample(_now?: Date): FeedPrice[] {
    const out: FeedPrice[] = [];
    if (this.open) {
      const nowMs = this.options.clock.now().getTime();
      for (const [instrument, heard] of this.heard) {
        if (nowMs - heard.receivedAtMs > this.maxTradeAgeMs) continue;
        out.push({
          instrument,
          priceMinor: heard.priceMinor,
          source: this.source,
          volumeMinor: heard.volumeMinor,
          sourceTimeMs: heard.tradeTimeMs,
          receivedAtMs: heard.receivedAtMs,
        });
        heard.volumeMinor = 0n;
      }
    }
    return out;
  }

  /** Feeds one raw message through the parser, as the socket does (tests replay recorded messages with it). */
  receive(text: string): AggTrade | null {
    this.lastMessageAtMs = this.options.clock.now().getTime();
    const trade = parseAggTrade(text);
    if (!trade) return null;
    const heard = this.heard.get(trade.symbol);
    if (heard) {
      heard.volumeMinor += trade.quantityMinor;
      // A trade older than the one held (out of order) adds its volume but not its price.
      if (trade.tradeTimeMs >= heard.tradeTimeMs) {
        heard.priceMinor = trade.priceMinor;
        heard.tradeTimeMs = trade.tradeTimeMs;
        heard.receivedAtMs = this.lastMessageAtMs;
      }
    } else {
      this.heard.set(trade.symbol, {
        priceMinor: trade.priceMinor,
        volumeMinor: trade.quantityMinor,
        tradeTimeMs: trade.tradeTimeMs,
        receivedAtMs: this.lastMessageAtMs,
      });
    }
    this.emit('trade', trade);
    return trade;
  }

  private connect(): void {
    const socket = new WebSocket(this.url, { handshakeTimeout: 10_000, maxPayload: 64 * 1024 });
    this.socket = socket;
    socket.on('open', () => {
      if (this.socket !== socket) return;
      this.open = true;
      this.openedAtMs = this.options.clock.now().getTime();
      this.lastMessageAtMs = this.openedAtMs;
      this.options.log?.info({ url: this.url.split('?')[0] }, 'binance feed connected');
      this.watch(socket);
      this.emit('open');
    });
    socket.on('message', (data, isBinary) => {
      if (this.socket !== socket || isBinary) return;
      this.receive(data.toString());
    });
    socket.on('error', (error) => {
      this.options.log?.warn({ err: error }, 'binance feed: connection error');
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.dropped();
    });
  }

  /** The stream went away (closed, failed to open, or fell silent): forget its prices and come back later. */
  private dropped(): void {
    const wasOpen = this.open;
    this.socket = null;
    this.forget();
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    if (wasOpen && this.options.clock.now().getTime() - this.openedAtMs >= this.backoff.healthyMs)
      this.attempt = 0;
    this.emit('close');
    if (this.stopped) return;
    const delay = backoffDelayMs(this.backoff, this.attempt, this.random);
    this.attempt += 1;
    this.options.log?.warn({ delayMs: delay }, 'binance feed disconnected; reconnecting');
    this.emit('reconnect', delay);
    this.cancelReconnect = this.schedule(() => {
      this.cancelReconnect = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  private forget(): void {
    this.open = false;
    this.heard.clear();
  }

  private watch(socket: WebSocket): void {
    this.cancelWatchdog = this.schedule(
      () => {
        this.cancelWatchdog = null;
        if (this.socket !== socket) return;
        if (this.options.clock.now().getTime() - this.lastMessageAtMs >= this.silenceMs) {
          this.options.log?.warn(
            { silenceMs: this.silenceMs },
            'binance feed: stream silent; reconnecting',
          );
          socket.terminate();
          return;
        }
        this.watch(socket);
      },
      Math.max(1_000, Math.floor(this.silenceMs / 3)),
    );
  }
}
