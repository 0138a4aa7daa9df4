import { EventEmitter } from 'node:events';
import type { InstrumentSymbol } from '@tradewind/contract/market';
import type { FastifyBaseLogger } from 'fastify';
import { backoffDelayMs } from '#platform/backoff.ts';
import type { Clock } from '#platform/clock.ts';
import { PYTH_FEEDS, type PythFeedAt, type PythFeedMap, pythFeedsAt } from './feed-ids.ts';
import { type HermesRejection, type PythTick, parseHermesMessage } from './hermes.ts';
import { type SseEvent, SseOverflowError, SseParser } from './sse.ts';

/** Pyth's public Hermes; from 2026-08-18 it serves the upgraded Pyth Core and wants an API key. */
export const HERMES_URL = 'https://hermes.pyth.network';

/** Hermes answers a request over its rate limit (10 per 10 s per IP) with 429 and refuses that IP for the next 60 s. */
export const HERMES_RATE_LIMIT_PENALTY_MS = 60_000;

/** Where the adapter's settings come from: PYTH_API_KEY (sent as a bearer token) and, optionally, PYTH_HERMES_URL. */
export function hermesSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  baseUrl: string;
  apiKey: string | undefined;
} {
  return {
    baseUrl: env.PYTH_HERMES_URL?.trim() || HERMES_URL,
    apiKey: env.PYTH_API_KEY?.trim() || undefined,
  };
}

/** The stream endpoint for `feedIds`, asking for parsed prices next to the hex-encoded signed update. */
export function hermesStreamUrl(baseUrl: string, feedIds: Iterable<string>): string {
  const url = new URL('v2/updates/price/stream', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const id of feedIds) url.searchParams.append('ids[]', id);
  url.searchParams.set('parsed', 'true');
  url.searchParams.set('encoding', 'hex');
  // A rolled-off futures id must not cost every other instrument its prices.
  url.searchParams.set('ignore_invalid_price_ids', 'true');
  return url.toString();
}

/** What the stream counts; the totals are logged every `reportEveryMs`. */
export interface PythStreamCounters {
  accepted: number;
  duplicate: number;
  outOfOrder: number;
  malformed: number;
  unknownId: number;
  /** Published longer than `maxAgeMs` before it arrived. */
  stale: number;
  /** Published more than `maxFutureMs` after it arrived (a clock is wrong somewhere). */
  future: number;
  /** Pyth's own confidence interval wider than `maxConfBps` of the price. */
  wideConfidence: number;
  reconnects: number;
  silences: number;
  /** Refused connections (401/403: a missing or wrong API key; 429: over the plan's rate). */
  refused: number;
}

export type PythRejection =
  HermesRejection | 'duplicate' | 'out_of_order' | 'stale' | 'future' | 'wide_confidence';

const COUNTER_OF: Record<PythRejection, keyof PythStreamCounters> = {
  malformed: 'malformed',
  unknown_id: 'unknownId',
  duplicate: 'duplicate',
  out_of_order: 'outOfOrder',
  stale: 'stale',
  future: 'future',
  wide_confidence: 'wideConfidence',
};

/** An accepted tick and when it arrived. */
export type ReceivedPythTick = PythTick & { receivedAtMs: number };

/** Schedules `fn` after `ms`; returns a cancel function. Injected by tests so nothing waits for real. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface PythStreamOptions {
  clock: Clock;
  /** Hermes' base URL (HERMES_URL unless PYTH_HERMES_URL says otherwise). */
  baseUrl?: string;
  /** PYTH_API_KEY: sent as `Authorization: Bearer …`, never in the URL, so it stays out of logs. */
  apiKey?: string;
  feeds?: PythFeedMap;
  fetch?: typeof fetch;
  schedule?: Schedule;
  random?: () => number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Reconnect delays: the ceiling doubles from `baseMs` to `maxMs`; a connection that lived `healthyMs` starts over at `baseMs`. */
  backoff?: { baseMs: number; maxMs: number; healthyMs: number };
  /** No event for this long and the connection is dropped and reopened: crypto feeds publish several times a second, so silence is a fault. */
  silenceMs?: number;
  maxAgeMs?: number;
  maxFutureMs?: number;
  /** A price whose confidence interval is wider than this (basis points of the price) is Pyth saying it does not know. */
  maxConfBps?: number;
  reportEveryMs?: number;
}

interface FeedState {
  publishTimeMs: number;
  slot: number | undefined;
}

export type PythStreamEvent = 'open' | 'close' | 'tick' | 'rejected' | 'reconnect' | 'silence';

/**
 * Pyth prices from Hermes' server-sent event stream (decision 0024): one connection for every
 * instrument's feed. It reconnects with capped exponential backoff and jitter, drops a stream
 * that falls silent, follows futures rolls (reconnecting with the new ids), and accepts an
 * update only if it is well formed, for a subscribed feed, newer than the last one of that feed
 * (publish time, then slot), fresh, and confident. Everything refused is counted, never thrown.
 *
 * Events: `tick` (ReceivedPythTick), `rejected` ({ reason, feedId? }), `open`, `close`,
 * `reconnect` (delay ms), `silence`.
 */
export class PythStream extends EventEmitter {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly schedule: Schedule;
  private readonly random: () => number;
  private readonly backoff: { baseMs: number; maxMs: number; healthyMs: number };
  private readonly silenceMs: number;
  private readonly maxAgeMs: number;
  private readonly maxFutureMs: number;
  private readonly maxConfBps: bigint;
  private readonly reportEveryMs: number;
  private readonly state = new Map<string, FeedState>();
  private readonly latestTicks = new Map<InstrumentSymbol, ReceivedPythTick>();
  private readonly count: PythStreamCounters = {
    accepted: 0,
    duplicate: 0,
    outOfOrder: 0,
    malformed: 0,
    unknownId: 0,
    stale: 0,
    future: 0,
    wideConfidence: 0,
    reconnects: 0,
    silences: 0,
    refused: 0,
  };
  private feeds: PythFeedMap;
  private subscribed = new Map<string, PythFeedAt>();
  private abort: AbortController | null = null;
  private open = false;
  private stopped = true;
  private attempt = 0;
  /** After a 429 Hermes refuses every request for a minute; retrying sooner only extends it. */
  private retryNotBeforeMs = 0;
  private openedAtMs = 0;
  private lastEventAtMs = 0;
  private lastReportAtMs = 0;
  private reported = '';
  private cancelReconnect: (() => void) | null = null;
  private cancelWatchdog: (() => void) | null = null;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly options: PythStreamOptions) {
    super();
    this.baseUrl = options.baseUrl ?? HERMES_URL;
    this.fetchFn = options.fetch ?? fetch;
    this.schedule = options.schedule ?? realSchedule;
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: 60_000, healthyMs: 60_000 };
    this.silenceMs = options.silenceMs ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.maxFutureMs = options.maxFutureMs ?? 2_000;
    this.maxConfBps = BigInt(options.maxConfBps ?? 200);
    this.reportEveryMs = options.reportEveryMs ?? 60_000;
    this.feeds = options.feeds ?? PYTH_FEEDS;
    this.subscribed = pythFeedsAt(this.nowMs(), this.feeds);
  }

  /**
   * Replaces the feed map (futures months listed since start, pyth/contracts.ts): when it
   * changes what is front now, the stream resubscribes at its next check, as at a roll.
   */
  setFeeds(feeds: PythFeedMap): void {
    this.feeds = feeds;
  }

  get connected(): boolean {
    return this.open;
  }

  /** A copy of the counters since start. */
  counters(): PythStreamCounters {
    return { ...this.count };
  }

  /** The last accepted tick of an instrument on the current connection, whatever its age: freshness is the reader's rule. */
  latest(instrument: InstrumentSymbol): ReceivedPythTick | undefined {
    return this.latestTicks.get(instrument);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastReportAtMs = this.nowMs();
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelReconnect?.();
    this.cancelReconnect = null;
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    this.abort?.abort();
    this.abort = null;
    await this.reading;
    this.open = false;
    this.latestTicks.clear();
  }

  /** Feeds one SSE `data` payload through the checks, as the connection does (tests replay recorded messages with it). */
  receive(data: string): ReceivedPythTick[] {
    const receivedAtMs = this.nowMs();
    this.lastEventAtMs = receivedAtMs;
    const accepted: ReceivedPythTick[] = [];
    for (const entry of parseHermesMessage(data, this.subscribed)) {
      if (!entry.ok) {
        this.rejected(entry.reason, entry.feedId, entry.detail);
        continue;
      }
      const reason = this.check(entry.tick, receivedAtMs);
      if (reason) {
        this.rejected(reason, entry.tick.sourceId);
        continue;
      }
      const tick: ReceivedPythTick = { ...entry.tick, receivedAtMs };
      this.state.set(tick.sourceId, { publishTimeMs: tick.publishTimeMs, slot: tick.slot });
      this.latestTicks.set(tick.symbol, tick);
      this.count.accepted += 1;
      accepted.push(tick);
      this.emit('tick', tick);
    }
    return accepted;
  }

  private nowMs(): number {
    return this.options.clock.now().getTime();
  }

  private check(tick: PythTick, receivedAtMs: number): PythRejection | null {
    const last = this.state.get(tick.sourceId);
    if (last) {
      if (tick.publishTimeMs < last.publishTimeMs) return 'out_of_order';
      if (tick.publishTimeMs === last.publishTimeMs) {
        // Several slots can publish within one second; the slot orders them when Hermes sends it.
        if (tick.slot === undefined || last.slot === undefined || tick.slot === last.slot)
          return 'duplicate';
        if (tick.slot < last.slot) return 'out_of_order';
      }
    }
    if (receivedAtMs - tick.publishTimeMs > this.maxAgeMs) return 'stale';
    if (tick.publishTimeMs - receivedAtMs > this.maxFutureMs) return 'future';
    if (tick.confMinor * 10_000n > tick.priceMinor * this.maxConfBps) return 'wide_confidence';
    return null;
  }

  private rejected(reason: PythRejection, feedId: string | undefined, detail?: string): void {
    this.count[COUNTER_OF[reason]] += 1;
    this.emit('rejected', { reason, feedId, detail });
  }

  private connect(): void {
    this.subscribed = pythFeedsAt(this.nowMs(), this.feeds);
    if (this.subscribed.size === 0) {
      this.options.log?.warn('pyth feed: no instrument has a current Pyth feed');
      this.dropped();
      return;
    }
    const abort = new AbortController();
    this.abort = abort;
    this.reading = this.read(abort)
      .catch((error: unknown) => {
        if (!abort.signal.aborted)
          this.options.log?.warn({ err: error }, 'pyth feed: connection error');
      })
      .finally(() => {
        if (this.abort === abort) this.dropped();
      });
  }

  private async read(abort: AbortController): Promise<void> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const response = await this.fetchFn(hermesStreamUrl(this.baseUrl, this.subscribed.keys()), {
      headers,
      signal: abort.signal,
    });
    if (!response.ok || !response.body) {
      if ([401, 403, 429].includes(response.status)) this.count.refused += 1;
      if (response.status === 429) this.retryNotBeforeMs = HERMES_RATE_LIMIT_PENALTY_MS;
      this.options.log?.warn(
        { status: response.status, hasKey: Boolean(this.options.apiKey) },
        'pyth feed: Hermes refused the stream',
      );
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    this.open = true;
    this.openedAtMs = this.nowMs();
    this.lastEventAtMs = this.openedAtMs;
    this.options.log?.info({ feeds: this.subscribed.size }, 'pyth feed connected');
    this.watch(abort);
    this.emit('open');
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || abort.signal.aborted) return;
        let events: SseEvent[];
        try {
          events = parser.push(decoder.decode(value, { stream: true }));
        } catch (error) {
          if (!(error instanceof SseOverflowError)) throw error;
          // A stream that never ends its event is broken: drop it rather than buffer without bound.
          this.rejected('malformed', undefined, error.message);
          return;
        }
        for (const event of events) {
          if (this.abort !== abort) return;
          if (event.event === 'message') this.receive(event.data);
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }

  /** The stream went away (closed, refused, or dropped for silence or a roll): its prices are forgotten and it comes back later. */
  private dropped(): void {
    const wasOpen = this.open;
    this.abort = null;
    this.open = false;
    this.latestTicks.clear();
    this.cancelWatchdog?.();
    this.cancelWatchdog = null;
    if (wasOpen && this.nowMs() - this.openedAtMs >= this.backoff.healthyMs) this.attempt = 0;
    this.emit('close');
    if (this.stopped) return;
    const delay = Math.max(
      this.retryNotBeforeMs,
      backoffDelayMs(this.backoff, this.attempt, this.random),
    );
    this.attempt += 1;
    this.retryNotBeforeMs = 0;
    this.count.reconnects += 1;
    this.options.log?.warn({ delayMs: delay }, 'pyth feed disconnected; reconnecting');
    this.emit('reconnect', delay);
    this.cancelReconnect = this.schedule(() => {
      this.cancelReconnect = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  private watch(abort: AbortController): void {
    this.cancelWatchdog = this.schedule(
      () => {
        this.cancelWatchdog = null;
        if (this.abort !== abort) return;
        const nowMs = this.nowMs();
        this.report(nowMs);
        if (nowMs - this.lastEventAtMs >= this.silenceMs) {
          this.count.silences += 1;
          this.options.log?.warn(
            { silenceMs: this.silenceMs },
            'pyth feed: stream silent; reconnecting',
          );
          this.emit('silence');
          abort.abort();
          return;
        }
        if (this.rolled(nowMs)) {
          this.options.log?.info('pyth feed: a futures contract rolled; resubscribing');
          // Back at the base delay: nothing failed.
          this.attempt = 0;
          abort.abort();
          return;
        }
        this.watch(abort);
      },
      Math.max(250, Math.floor(this.silenceMs / 4)),
    );
  }

  private rolled(nowMs: number): boolean {
    const now = pythFeedsAt(nowMs, this.feeds);
    if (now.size !== this.subscribed.size) return true;
    for (const id of now.keys()) if (!this.subscribed.has(id)) return true;
    return false;
  }

  private report(nowMs: number): void {
    if (nowMs - this.lastReportAtMs < this.reportEveryMs) return;
    this.lastReportAtMs = nowMs;
    const counters = JSON.stringify(this.count);
    if (counters === this.reported) return;
    this.reported = counters;
    this.options.log?.info({ counters: this.count }, 'pyth feed: counters');
  }
}
