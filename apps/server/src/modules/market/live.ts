import {
  INSTRUMENT_SYMBOLS,
  type InstrumentSymbol,
  KLINE_INTERVALS,
  type KlineInterval,
  type KlineMessage,
  isInstrumentSymbol,
  klineChannel,
  tickerChannel,
} from '@tradewind/contract/market';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import type { Relay } from '#platform/relay.ts';
import type { Hub } from '#platform/ws.ts';
import { TICKS_TOPIC, type TicksEvent } from './recorder.ts';
import { currentCandles, tickers } from './service.ts';

const TICKER_CHANNELS = new Set(INSTRUMENT_SYMBOLS.map((symbol) => tickerChannel(symbol)));
const KLINE_CHANNELS = new Set(
  INSTRUMENT_SYMBOLS.flatMap((symbol) =>
    KLINE_INTERVALS.map((interval) => klineChannel(symbol, interval)),
  ),
);

/** The market's public channels: `ticker.<symbol>` and `kline.<symbol>.<interval>` of every instrument. */
export const isMarketChannel = (channel: string) =>
  TICKER_CHANNELS.has(channel) || KLINE_CHANNELS.has(channel);

/**
 * Turns recorded ticks into live messages for this process's sockets. The recorder (in
 * whichever process records) relays a small "ticks recorded" event to every process;
 * each process then computes tickers and current candles only for the channels its own
 * sockets subscribe to, and sends each message serialised once. Nobody subscribed, nothing
 * computed. Events that arrive while a computation runs are folded into one more run, so
 * a slow database never builds a queue.
 */
export class MarketBroadcaster {
  private running: Promise<void> | null = null;
  private pending: TicksEvent | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      hub: Hub;
      relay: Relay;
      log?: Pick<FastifyBaseLogger, 'error'>;
    },
  ) {
    // A relay by subject brings an instrument's ticks only while a socket here watches it.
    deps.hub.watchChannels((channel, open) => {
      const symbol = isMarketChannel(channel) ? channel.split('.')[1] : undefined;
      if (symbol === undefined) return;
      if (open) deps.relay.want(TICKS_TOPIC, symbol);
      else deps.relay.unwant(TICKS_TOPIC, symbol);
    });
    deps.relay.on(TICKS_TOPIC, (payload) => {
      try {
        this.enqueue(JSON.parse(payload) as TicksEvent);
      } catch (error) {
        deps.log?.error({ err: error }, 'market: unreadable ticks event');
      }
    });
  }

  /** Resolves when the events received so far are broadcast (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private enqueue(event: TicksEvent): void {
    if (this.running) {
      this.pending = this.pending ? merge(this.pending, event) : event;
      return;
    }
    // The recorder relays one event per instrument, all in one turn: they wait for the turn's
    // end and go in one computation.
    this.pending = event;
    this.running = Promise.resolve()
      .then(() => {
        const first = this.pending as TicksEvent;
        this.pending = null;
        return this.broadcast(first);
      })
      .then(() => undefined)
      .catch((error: unknown) =>
        this.deps.log?.error({ err: error }, 'market: live broadcast failed'),
      )
      .finally(() => {
        this.running = null;
        const next = this.pending;
        this.pending = null;
        if (next) this.enqueue(next);
      });
  }

  /** Publishes the ticker and current candles of the event's instruments to subscribed channels; returns the channels sent to. */
  async broadcast(event: TicksEvent): Promise<string[]> {
    const { hub, db, clock } = this.deps;
    const symbols = [...new Set(event.items.map((item) => item.symbol))].filter(isInstrumentSymbol);
    const tickerSymbols = symbols.filter((symbol) => hub.hasSubscribers(tickerChannel(symbol)));
    const klinePairs: { symbol: InstrumentSymbol; interval: KlineInterval }[] = symbols.flatMap(
      (symbol) =>
        KLINE_INTERVALS.filter((interval) =>
          hub.hasSubscribers(klineChannel(symbol, interval)),
        ).map((interval) => ({ symbol, interval })),
    );
    if (tickerSymbols.length === 0 && klinePairs.length === 0) return [];
    // Another process may record a few milliseconds "ahead" of this one's clock.
    const at = new Date(Math.max(clock.now().getTime(), Date.parse(event.ts)));
    const [tickerList, candleList] = await Promise.all([
      tickers(db, at, 'en', tickerSymbols),
      currentCandles(db, at, klinePairs),
    ]);
    const sent: string[] = [];
    for (const ticker of tickerList) {
      if (ticker.price === null) continue;
      const channel = tickerChannel(ticker.symbol);
      if (hub.publishLocal(channel, ticker) > 0) sent.push(channel);
    }
    for (const { symbol, interval, candle } of candleList) {
      const channel = klineChannel(symbol, interval);
      const message: KlineMessage = { symbol, interval, candle };
      if (hub.publishLocal(channel, message) > 0) sent.push(channel);
    }
    return sent;
  }
}

function merge(a: TicksEvent, b: TicksEvent): TicksEvent {
  const later = Date.parse(b.ts) >= Date.parse(a.ts) ? b : a;
  const bySymbol = new Map(a.items.map((item) => [item.symbol, item]));
  for (const item of b.items) bySymbol.set(item.symbol, item);
  return { ts: later.ts, items: [...bySymbol.values()] };
}
