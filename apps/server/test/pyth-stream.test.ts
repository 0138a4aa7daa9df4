import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withListedContracts } from '../src/modules/market/pyth/contracts.ts';
import { PYTH_FEEDS, type PythFeedMap } from '../src/modules/market/pyth/feed-ids.ts';
import { type SseEvent, SseOverflowError, SseParser } from '../src/modules/market/pyth/sse.ts';
import {
  HERMES_RATE_LIMIT_PENALTY_MS,
  HERMES_URL,
  PythStream,
  type ReceivedPythTick,
  type Schedule,
  hermesSettingsFromEnv,
  hermesStreamUrl,
} from '../src/modules/market/pyth/stream.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { startLocalHttp } from './local-http.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/pyth');
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

/** The two recorded events, each as the SSE text a live stream sends (fixtures/pyth/README.md). */
const [EVENT_300 = '', EVENT_301 = ''] = fixture('hermes-stream-btc-usd.sse')
  .split('\n')
  .filter((line) => line.startsWith('data:'))
  .map((line) => `${line}\n\n`);
/** The recorded `latest` reply as one event: BTC/USD from earlier that day, and ETH/BTC, which no instrument uses. */
const EVENT_LATEST = `data:${JSON.stringify(JSON.parse(fixture('hermes-latest-btc-usd-eth-btc.json')))}\n\n`;
const PUBLISHED_300_MS = 1_714_748_300_000;

/** Timers the test fires by hand. */
class ManualSchedule {
  timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  readonly schedule: Schedule = (fn, ms) => {
    const timer = { fn, ms, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };

  pending(): { fn: () => void; ms: number; cancelled: boolean }[] {
    return this.timers.filter((timer) => !timer.cancelled);
  }

  /** Runs the timers due now, once each. */
  fire(): void {
    const due = this.pending();
    this.timers = [];
    for (const timer of due) timer.fn();
  }
}

/** A local Hermes: each request is handed to the current `script`, which writes what that test wants. */
interface Hermes {
  url: string;
  requests: IncomingMessage[];
  responses: ServerResponse[];
  script: (response: ServerResponse, attempt: number) => void;
  close: () => Promise<void>;
}

async function startHermes(): Promise<Hermes> {
  const local = await startLocalHttp();
  const hermes: Hermes = {
    url: local.url,
    requests: local.requests,
    responses: [],
    script: (response) => stream200(response),
    close: local.close,
  };
  local.handle = (_request, response) => {
    hermes.responses.push(response);
    hermes.script(response, hermes.requests.length);
  };
  return hermes;
}

const stream200 = (response: ServerResponse, ...chunks: string[]) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.flushHeaders();
  for (const chunk of chunks) response.write(chunk);
};

/** The feed map with WTI's months alone. */
const onlyWtiFeeds = (): PythFeedMap =>
  ({
    ...Object.fromEntries(Object.keys(PYTH_FEEDS).map((symbol) => [symbol, null])),
    WTIUSD: PYTH_FEEDS.WTIUSD,
  }) as PythFeedMap;

let hermes: Hermes;
let clock: ManualClock;
let timers: ManualSchedule;
let stream: PythStream | null;

function open(
  options: { feeds?: PythFeedMap; random?: () => number; silenceMs?: number } = {},
): PythStream {
  stream = new PythStream({
    clock,
    baseUrl: hermes.url,
    apiKey: 'test-key',
    schedule: timers.schedule,
    random: options.random ?? (() => 1),
    backoff: { baseMs: 1_000, maxMs: 8_000, healthyMs: 60_000 },
    silenceMs: options.silenceMs ?? 10_000,
    ...(options.feeds ? { feeds: options.feeds } : {}),
  });
  return stream;
}

const ticksOf = (source: PythStream) => {
  const seen: ReceivedPythTick[] = [];
  source.on('tick', (tick: ReceivedPythTick) => seen.push(tick));
  return seen;
};

beforeEach(async () => {
  hermes = await startHermes();
  clock = new ManualClock(PUBLISHED_300_MS + 1_500);
  timers = new ManualSchedule();
  stream = null;
});

afterEach(async () => {
  await stream?.stop();
  await hermes.close();
});

describe('the Hermes stream on a local server replaying recorded messages', () => {
  it('subscribes to every instrument’s feed, sends the API key as a bearer header only, and turns the recorded events into ticks', async () => {
    hermes.script = (response) => stream200(response, EVENT_300, EVENT_301);
    const source = open();
    const seen = ticksOf(source);
    source.start();
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    const request = hermes.requests[0];
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.headers.accept).toBe('text/event-stream');
    const url = new URL(request?.url ?? '', hermes.url);
    expect(url.pathname).toBe('/v2/updates/price/stream');
    expect(url.searchParams.getAll('ids[]')).toHaveLength(17);
    expect(url.searchParams.get('parsed')).toBe('true');
    expect(url.searchParams.get('encoding')).toBe('hex');
    expect(url.search).not.toContain('test-key');
    expect(
      seen.map((tick) => [tick.symbol, tick.priceMinor, tick.publishTimeMs, tick.receivedAtMs]),
    ).toEqual([
      ['BTCUSDT', 6_163_260n, PUBLISHED_300_MS, PUBLISHED_300_MS + 1_500],
      ['BTCUSDT', 6_163_088n, PUBLISHED_300_MS + 1_000, PUBLISHED_300_MS + 1_500],
    ]);
    expect(seen[0]?.signedUpdate).toMatch(/^504e4155/);
    expect(source.latest('BTCUSDT')?.priceMinor).toBe(6_163_088n);
    expect(source.connected).toBe(true);
    expect(source.counters()).toMatchObject({ accepted: 2, reconnects: 0 });
  });

  it('duplicates, out-of-order updates, malformed messages and unknown ids are dropped and counted while the stream goes on', async () => {
    hermes.script = (response) =>
      stream200(
        response,
        EVENT_301,
        EVENT_300, // older than what was accepted
        EVENT_301, // the same update again
        'data: {"parsed":[{"id":\n\n', // cut short
        EVENT_LATEST, // BTC/USD from earlier in the day, and ETH/BTC
        ': keep-alive\n\n',
      );
    const source = open();
    const rejected: string[] = [];
    source.on('rejected', ({ reason }: { reason: string }) => rejected.push(reason));
    source.start();
    await vi.waitFor(() => expect(rejected).toHaveLength(5));
    expect(rejected).toEqual([
      'out_of_order',
      'duplicate',
      'malformed',
      'out_of_order',
      'unknown_id',
    ]);
    expect(source.counters()).toMatchObject({
      accepted: 1,
      outOfOrder: 2,
      duplicate: 1,
      malformed: 1,
      unknownId: 1,
      reconnects: 0,
    });
    expect(source.latest('BTCUSDT')?.publishTimeMs).toBe(PUBLISHED_300_MS + 1_000);
    expect(source.connected).toBe(true);
    expect(hermes.requests).toHaveLength(1);
  });

  it('a dropped connection is reopened with capped exponential backoff, and what it resends is not taken as new', async () => {
    hermes.script = (response, attempt) => {
      stream200(response, EVENT_300);
      if (attempt < 5) response.end();
      else response.write(EVENT_301);
    };
    const source = open();
    const seen = ticksOf(source);
    const delays: number[] = [];
    source.on('reconnect', (delay: number) => delays.push(delay));
    source.start();
    for (let attempt = 1; attempt < 5; attempt++) {
      await vi.waitFor(() => expect(delays).toHaveLength(attempt));
      expect(source.connected).toBe(false);
      // Nothing heard on a closed connection is offered as current.
      expect(source.latest('BTCUSDT')).toBeUndefined();
      timers.fire();
    }
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    // random() = 1 picks the ceiling: 1 s doubling, capped at 8 s.
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(seen.map((tick) => tick.publishTimeMs)).toEqual([
      PUBLISHED_300_MS,
      PUBLISHED_300_MS + 1_000,
    ]);
    expect(source.counters()).toMatchObject({ accepted: 2, duplicate: 4, reconnects: 4 });
    expect(hermes.requests).toHaveLength(5);
  });

  it('the jitter keeps every delay between half the ceiling and the ceiling', async () => {
    hermes.script = (response) => response.destroy();
    const source = open({ random: () => 0 });
    const delays: number[] = [];
    source.on('reconnect', (delay: number) => delays.push(delay));
    source.start();
    await vi.waitFor(() => expect(delays).toHaveLength(1));
    timers.fire();
    await vi.waitFor(() => expect(delays).toHaveLength(2));
    expect(delays).toEqual([500, 1_000]);
  });

  it('a stream that falls silent is dropped after the silence limit and reopened', async () => {
    hermes.script = (response) =>
      stream200(response, EVENT_300, ': keep-alives do not count as prices\n\n');
    const source = open({ silenceMs: 10_000 });
    const seen = ticksOf(source);
    let silences = 0;
    source.on('silence', () => (silences += 1));
    source.start();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    // The watchdog looks every quarter of the limit; 9.9 s of quiet is still fine.
    clock.advance(9_900);
    timers.fire();
    expect(silences).toBe(0);
    clock.advance(100);
    timers.fire();
    expect(silences).toBe(1);
    await vi.waitFor(() => expect(source.counters().reconnects).toBe(1));
    expect(source.connected).toBe(false);
    timers.fire();
    await vi.waitFor(() => expect(hermes.requests).toHaveLength(2));
    expect(source.counters()).toMatchObject({ silences: 1, reconnects: 1 });
  });

  it('a refused key is counted and retried with backoff, and the process carries on', async () => {
    hermes.script = (response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":"missing api key"}');
    };
    const warnings: string[] = [];
    stream = new PythStream({
      clock,
      baseUrl: hermes.url,
      schedule: timers.schedule,
      random: () => 1,
      log: {
        info: () => undefined,
        warn: (_obj: unknown, message?: string) => warnings.push(message ?? ''),
      } as never,
    });
    stream.start();
    await vi.waitFor(() => expect(stream?.counters().reconnects).toBe(1));
    expect(hermes.requests[0]?.headers.authorization).toBeUndefined();
    expect(stream.counters()).toMatchObject({ refused: 1, accepted: 0 });
    expect(warnings).toContain('pyth feed: Hermes refused the stream');
    timers.fire();
    await vi.waitFor(() => expect(stream?.counters().refused).toBe(2));
  });

  it('after a 429 the next attempt waits out Hermes’ one-minute penalty, then backoff resumes', async () => {
    hermes.script = (response, attempt) => {
      response.writeHead(attempt === 1 ? 429 : 503);
      response.end();
    };
    const source = open();
    const delays: number[] = [];
    source.on('reconnect', (delay: number) => delays.push(delay));
    source.start();
    await vi.waitFor(() => expect(delays).toHaveLength(1));
    timers.fire();
    await vi.waitFor(() => expect(delays).toHaveLength(2));
    expect(delays).toEqual([HERMES_RATE_LIMIT_PENALTY_MS, 2_000]);
    expect(source.counters()).toMatchObject({ refused: 1, reconnects: 2 });
  });

  it('a stream that never ends its event is dropped as malformed instead of buffered', async () => {
    hermes.script = (response, attempt) => {
      if (attempt === 1) stream200(response, `data:${'x'.repeat(1_100_000)}`);
      else stream200(response, EVENT_300);
    };
    const source = open();
    const seen = ticksOf(source);
    source.start();
    await vi.waitFor(() => expect(source.counters().reconnects).toBe(1));
    expect(source.counters().malformed).toBe(1);
    timers.fire();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
  });

  it('when a futures contract rolls, the stream resubscribes with the next month’s feed', async () => {
    const onlyWti = onlyWtiFeeds();
    clock.set(Date.UTC(2026, 6, 17, 23, 59, 59));
    // A long silence limit: no WTI update is recorded to keep this stream busy.
    const source = open({ feeds: onlyWti, silenceMs: 60_000 });
    source.start();
    await vi.waitFor(() => expect(source.connected).toBe(true));
    expect(new URL(hermes.requests[0]?.url ?? '', hermes.url).searchParams.getAll('ids[]')).toEqual(
      ['05e7c9b556df67e455c52ea2d31658744e3f4ade60db7dab887008844f2ae472'],
    );
    // Midnight: WTIQ6 rolls to WTIU6, three days before its last trading day.
    clock.advance(2_000);
    timers.fire();
    await vi.waitFor(() => expect(source.counters().reconnects).toBe(1));
    timers.fire();
    await vi.waitFor(() => expect(hermes.requests).toHaveLength(2));
    expect(new URL(hermes.requests[1]?.url ?? '', hermes.url).searchParams.getAll('ids[]')).toEqual(
      ['17d0b3b03f9ccb6bb6721960f034b8601b3d89ef70743b33f86304a1565cebda'],
    );
    expect(source.counters().silences).toBe(0);
  });
});

describe('futures months listed after start', () => {
  it('a stream left with no WTI month subscribes to the month the listing found', async () => {
    const onlyWti = onlyWtiFeeds();
    // After WTIF7's roll the built-in list has no WTI month: nothing to subscribe to.
    clock.set(Date.UTC(2026, 11, 19));
    const source = open({ feeds: onlyWti, silenceMs: 60_000 });
    source.start();
    expect(source.connected).toBe(false);
    expect(hermes.requests).toHaveLength(0);
    expect(source.counters().reconnects).toBe(1);
    const g7 = 'e'.repeat(64);
    source.setFeeds(
      withListedContracts(onlyWti, [
        {
          instrument: 'WTIUSD',
          symbol: 'Commodities.WTIG7/USD',
          feedId: g7,
          lastTradeDate: '2027-01-20',
        },
      ]),
    );
    timers.fire();
    await vi.waitFor(() => expect(source.connected).toBe(true));
    expect(new URL(hermes.requests[0]?.url ?? '', hermes.url).searchParams.getAll('ids[]')).toEqual(
      [g7],
    );
  });
});

describe('freshness and confidence', () => {
  const data = (line: string) => line.slice('data:'.length).trim();

  it('an update published longer ago than the age limit is stale; one from the future beyond the skew limit is refused', () => {
    const source = open();
    clock.set(PUBLISHED_300_MS + 10_001);
    expect(source.receive(data(EVENT_300))).toEqual([]);
    clock.set(PUBLISHED_300_MS - 2_001);
    expect(source.receive(data(EVENT_300))).toEqual([]);
    clock.set(PUBLISHED_300_MS + 10_000);
    expect(source.receive(data(EVENT_300))).toHaveLength(1);
    expect(source.counters()).toMatchObject({ stale: 1, future: 1, accepted: 1 });
  });

  it('a price whose confidence interval is wider than 2 % is Pyth not knowing, and is refused', () => {
    const source = open();
    const message = JSON.parse(data(EVENT_300)) as {
      binary?: unknown;
      parsed: { price: { conf: string } }[];
    };
    const entry = message.parsed[0];
    if (!entry) throw new Error('fixture is empty');
    delete message.binary;
    // 2 % of 61632.60 is 1232.652: at the instrument's scale ±1232.66 is beyond it, ±1232.65 is not.
    entry.price.conf = '123265500000';
    expect(source.receive(JSON.stringify(message))).toEqual([]);
    entry.price.conf = '123265200000';
    expect(source.receive(JSON.stringify(message))).toHaveLength(1);
    expect(source.counters()).toMatchObject({ wideConfidence: 1, accepted: 1 });
  });

  it('two updates of the same second are ordered by their Pythnet slot', () => {
    const source = open();
    const message = JSON.parse(data(EVENT_300)) as {
      binary?: unknown;
      parsed: { price: { price: string }; metadata: { slot: number } }[];
    };
    const entry = message.parsed[0];
    if (!entry) throw new Error('fixture is empty');
    delete message.binary;
    expect(source.receive(JSON.stringify(message))).toHaveLength(1);
    entry.metadata.slot -= 1;
    expect(source.receive(JSON.stringify(message))).toEqual([]);
    entry.metadata.slot += 2;
    entry.price.price = '6163270000000';
    expect(source.receive(JSON.stringify(message)).map((tick) => tick.priceMinor)).toEqual([
      6_163_270n,
    ]);
    expect(source.counters()).toMatchObject({ accepted: 2, outOfOrder: 1 });
  });
});

describe('settings', () => {
  it('the key and the endpoint come from the environment; the URL never carries the key', () => {
    expect(hermesSettingsFromEnv({})).toEqual({ baseUrl: HERMES_URL, apiKey: undefined });
    expect(
      hermesSettingsFromEnv({
        PYTH_API_KEY: ' k ',
        PYTH_HERMES_URL: 'https://pyth.dourolabs.app/hermes',
      }),
    ).toEqual({ baseUrl: 'https://pyth.dourolabs.app/hermes', apiKey: 'k' });
    expect(hermesStreamUrl('https://pyth.dourolabs.app/hermes', ['ab'])).toBe(
      'https://pyth.dourolabs.app/hermes/v2/updates/price/stream?ids%5B%5D=ab&parsed=true&encoding=hex&ignore_invalid_price_ids=true',
    );
  });
});

describe('the SSE parser', () => {
  const parse = (chunks: string[]): SseEvent[] => {
    const parser = new SseParser(200);
    return chunks.flatMap((chunk) => parser.push(chunk));
  };

  it('gives the same events however the text is cut, with LF, CRLF or CR line ends', () => {
    const text =
      ': comment\ndata: one\n\nevent: price\ndata:two\ndata: lines\nid: 7\n\ndata\n\nretry: 5\n\n';
    const expected = [
      { event: 'message', data: 'one' },
      { event: 'price', data: 'two\nlines', id: '7' },
      { event: 'message', data: '', id: '7' },
    ];
    for (const newline of ['\n', '\r\n', '\r']) {
      const variant = text.replaceAll('\n', newline);
      expect(parse([variant]), JSON.stringify(newline)).toEqual(expected);
      for (const size of [1, 2, 3, 7]) {
        const chunks = variant.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
        expect(parse(chunks), `${JSON.stringify(newline)} in ${size}-char chunks`).toEqual(
          expected,
        );
      }
    }
  });

  it('an event is only complete at its blank line, and an oversized one throws instead of growing', () => {
    expect(parse(['data: waiting'])).toEqual([]);
    expect(() => parse([`data: ${'x'.repeat(201)}`])).toThrow(SseOverflowError);
    expect(() => parse(['data: xxxxxxxxxx\n'.repeat(40)])).toThrow(SseOverflowError);
  });
});
