import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTRUMENTS, INSTRUMENT_SYMBOLS } from '@tradewind/contract/market';
import {
  formatPythPrice,
  parseAccumulatorUpdate,
  parsePriceMessage,
  verifyPythUpdate,
} from '@tradewind/contract/pyth-proof';
import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  PYTH_FEEDS,
  PYTH_USDT_USD_FEED_ID,
  frontContract,
  pythFeedsAt,
} from '../src/modules/market/pyth/feed-ids.ts';
import {
  type HermesEntry,
  type PythTick,
  parseHermesMessage,
} from '../src/modules/market/pyth/hermes.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/pyth');
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

/** The `data:` payloads of the recorded stream (fixtures/pyth/README.md). */
const STREAM = fixture('hermes-stream-btc-usd.sse')
  .split('\n')
  .filter((line) => line.startsWith('data:'))
  .map((line) => line.slice('data:'.length));
const LATEST = fixture('hermes-latest-btc-usd-eth-btc.json');
const NINE_FEEDS = fixture('hermes-update-9-feeds.hex').trim();

const BTC_USD = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';
const ETH_BTC = 'c96458d393fe9deb7a7d63a0ac41e2898a67a7750dbd166673279e06c868df0a';

/** The feeds of an instant while every futures list still has a contract. */
const FEEDS = pythFeedsAt(Date.UTC(2026, 6, 1));

const ticks = (entries: HermesEntry[]): PythTick[] =>
  entries.flatMap((entry) => (entry.ok ? [entry.tick] : []));
const rejections = (entries: HermesEntry[]) =>
  entries.flatMap((entry) => (entry.ok ? [] : [{ reason: entry.reason, feedId: entry.feedId }]));

/**
 * A Hermes message around a real signed update whose `parsed` part this test decodes from the
 * binary itself (Hermes does the same). Only the wrapping is built; the update is recorded.
 */
function messageAround(updateHex: string): string {
  const parsed = parseAccumulatorUpdate(hexToBytes(updateHex)).updates.map(({ message }) => {
    const price = parsePriceMessage(message);
    if (!price) throw new Error('not a price message');
    const leg = (value: bigint, conf: bigint) => ({
      price: value.toString(),
      conf: conf.toString(),
      expo: price.expo,
      publish_time: price.publishTime,
    });
    return {
      id: price.feedId,
      price: leg(price.price, price.conf),
      ema_price: leg(price.emaPrice, price.emaConf),
      metadata: { prev_publish_time: price.prevPublishTime },
    };
  });
  return JSON.stringify({ binary: { encoding: 'hex', data: [updateHex] }, parsed });
}

/** An entry in the shape of the recorded ones, for a feed no recorded message covers; built, and unsigned. */
function builtEntry(
  id: string,
  price: string,
  expo: number,
  publishTime = 1_785_000_000,
  conf = '10',
) {
  return {
    id,
    price: { price, conf, expo, publish_time: publishTime },
    ema_price: { price, conf, expo, publish_time: publishTime },
    metadata: {
      slot: 1,
      proof_available_time: publishTime + 1,
      prev_publish_time: publishTime - 1,
    },
  };
}
const built = (...entries: unknown[]) => JSON.stringify({ parsed: entries });

describe('Hermes messages recorded from Pyth', () => {
  it('a streamed BTC/USD update becomes a tick at the instrument scale with Pyth’s publish time, slot and signed update', () => {
    const [first, second] = STREAM.map((data) => parseHermesMessage(data, FEEDS));
    expect(rejections(first ?? [])).toEqual([]);
    const [tick] = ticks(first ?? []);
    // price 6163260000000 × 10^-8 = 61632.6 → 6163260 cents; conf 32.68548079 rounds to 3269.
    expect(tick).toMatchObject({
      symbol: 'BTCUSDT',
      source: 'pyth',
      sourceId: BTC_USD,
      priceMinor: 6_163_260n,
      confMinor: 3_269n,
      publishTimeMs: 1_714_748_300_000,
      slot: 138_886_134,
    });
    // A single-feed update is kept whole: cutting it down to its one feed changes nothing.
    expect(tick?.signedUpdate).toBe(
      (JSON.parse(STREAM[0] ?? '') as { binary: { data: string[] } }).binary.data[0],
    );
    expect(verifyPythUpdate(tick?.signedUpdate ?? '', BTC_USD)).toMatchObject({
      ok: true,
      signedBy: 4,
      price: 6_163_260_000_000n,
    });
    expect(ticks(second ?? [])[0]).toMatchObject({
      priceMinor: 6_163_088n,
      publishTimeMs: 1_714_748_301_000,
      slot: 138_886_135,
    });
  });

  it('a feed no instrument uses is an unknown id, counted, while the known one in the same message is priced', () => {
    const entries = parseHermesMessage(LATEST, FEEDS);
    expect(ticks(entries)).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        priceMinor: 6_140_994n,
        publishTimeMs: 1_714_746_101_000,
      }),
    ]);
    expect(rejections(entries)).toEqual([{ reason: 'unknown_id', feedId: ETH_BTC }]);
  });

  it('a nine-feed signed update prices the four instruments it covers, each tick keeping only its own proof', () => {
    const entries = parseHermesMessage(messageAround(NINE_FEEDS), FEEDS);
    const bySymbol = new Map(ticks(entries).map((tick) => [tick.symbol, tick]));
    expect([...bySymbol.keys()].sort()).toEqual(['BTCUSDT', 'DOGEUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(bySymbol.get('BTCUSDT')?.priceMinor).toBe(11_331_920n); // 113319.19974145
    expect(bySymbol.get('ETHUSDT')?.priceMinor).toBe(359_674n); // 3596.73785109
    expect(bySymbol.get('DOGEUSDT')?.priceMinor).toBe(19_901n); // 0.19901436 at 5 places
    expect(bySymbol.get('SOLUSDT')?.priceMinor).toBe(16_414n); // 164.13812679
    expect(rejections(entries).map((rejection) => rejection.reason)).toEqual(
      Array(5).fill('unknown_id'),
    );
    for (const tick of bySymbol.values()) {
      const result = verifyPythUpdate(tick.signedUpdate ?? '', tick.sourceId);
      expect(result, tick.symbol).toMatchObject({
        ok: true,
        signedBy: 4,
        publishTime: 1_754_415_884,
      });
      expect(tick.signedUpdate?.length).toBeLessThan(NINE_FEEDS.length / 2);
    }
  });

  it('the same update sent base64-encoded gives the same signed update', () => {
    const message = JSON.parse(STREAM[0] ?? '') as { binary: { encoding: string; data: string[] } };
    const hex = message.binary.data[0] ?? '';
    message.binary = { encoding: 'base64', data: [Buffer.from(hex, 'hex').toString('base64')] };
    expect(ticks(parseHermesMessage(JSON.stringify(message), FEEDS))[0]?.signedUpdate).toBe(hex);
  });
});

describe('forex, metal and commodity feeds (entries built in the recorded shape; none recorded could be found)', () => {
  it('each exponent lands exactly on the instrument scale', () => {
    const wti = FEEDS.get(
      frontContract(
        PYTH_FEEDS.WTIUSD?.kind === 'futures'
          ? PYTH_FEEDS.WTIUSD
          : { kind: 'futures', root: 'WTI', contracts: [] },
        Date.UTC(2026, 6, 1),
      )?.feedId ?? '',
    );
    expect(wti?.pythSymbol).toBe('Commodities.WTIQ6/USD');
    const entries = parseHermesMessage(
      built(
        builtEntry(
          'a995d00bb36a63cef7fd2c287dc105fc8f3d93779f062f09551b0af3e81ec30b',
          '115290',
          -5,
        ),
        builtEntry(
          'ef2c98c804ba503c6a707e38be4dfbb16683775f195b091252bf24693042fd52',
          '151234',
          -3,
        ),
        builtEntry(
          '765d2ba906dbc32ca17cc11f5310a89e9ee1f6420508c63861f2f8ba4ee34bb2',
          '2650125',
          -3,
        ),
        builtEntry(wti?.feedId ?? '', '7151234', -5),
      ),
      FEEDS,
    );
    expect(rejections(entries)).toEqual([]);
    expect(ticks(entries).map((tick) => [tick.symbol, tick.priceMinor, tick.signedUpdate])).toEqual(
      [
        ['EURUSD', 115_290n, undefined],
        ['USDJPY', 151_234n, undefined],
        // 2650.125 → 2650.13: half away from zero.
        ['XAUUSD', 265_013n, undefined],
        ['WTIUSD', 7_151n, undefined],
      ],
    );
  });
});

describe('bad input is a counted rejection, never an exception', () => {
  const btc = (price: unknown, extra: Record<string, unknown> = {}) => ({
    id: BTC_USD,
    price: { price, conf: '1', expo: -8, publish_time: 1_714_748_300, ...extra },
  });

  it('anything not a Hermes message is one malformed rejection', () => {
    for (const text of [
      '',
      'not json',
      '{"binary":',
      'null',
      '[]',
      '{"parsed":{}}',
      '{"parsed":[]}',
      JSON.stringify({ parsed: Array(257).fill(btc('6163260000000')) }),
    ]) {
      expect(rejections(parseHermesMessage(text, FEEDS)), text.slice(0, 30)).toEqual([
        { reason: 'malformed', feedId: undefined },
      ]);
    }
  });

  it('an entry with a bad field is malformed; the good entries beside it still price', () => {
    const bad: unknown[] = [
      null,
      'entry',
      { id: 'e62df6c8', price: { price: '1', conf: '1', expo: -8, publish_time: 1 } },
      { id: BTC_USD },
      btc(6163260000000),
      btc('61632.6'),
      btc('1e12'),
      btc('99999999999999999999'),
      btc('6163260000000', { conf: '-1' }),
      btc('6163260000000', { expo: -8.5 }),
      btc('6163260000000', { expo: 2 ** 31 }),
      btc('6163260000000', { publish_time: -5 }),
      btc('6163260000000', { publish_time: '1714748300' }),
      btc('0'),
      btc('-6163260000000'),
      // Below one cent: rounds to zero at the instrument's scale.
      btc('400000'),
    ];
    const entries = parseHermesMessage(built(...bad, btc('6163260000000')), FEEDS);
    expect(rejections(entries).map((rejection) => rejection.reason)).toEqual(
      Array(bad.length).fill('malformed'),
    );
    expect(ticks(entries).map((tick) => tick.priceMinor)).toEqual([6_163_260n]);
  });

  it('a message whose signed binary says another price than its parsed part is not trusted', () => {
    const message = JSON.parse(STREAM[0] ?? '') as { parsed: { price: { price: string } }[] };
    const entry = message.parsed[0];
    if (!entry) throw new Error('fixture is empty');
    entry.price.price = '6263260000000';
    expect(rejections(parseHermesMessage(JSON.stringify(message), FEEDS))).toEqual([
      { reason: 'malformed', feedId: BTC_USD },
    ]);
  });
});

describe('the feed map', () => {
  const rows = fixture('pyth-symbols.csv')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .map(([symbol, id, expo]) => ({ symbol, id, expo: Number(expo) }));
  // Ids Pyth listed after that snapshot, without an exponent (fixtures README): their
  // messages carry it, and only the symbol is checked.
  const later = fixture('hermes-feeds-2026-09.csv')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .map(([symbol, id]) => ({ symbol, id, expo: undefined }));
  const byId = new Map<string, { symbol?: string; id?: string; expo?: number }>(
    [...rows, ...later].map((row) => [row.id ?? '', row]),
  );

  it('every instrument has a Pyth feed, and each id is the one Pyth lists under that symbol with at least the instrument’s precision', () => {
    for (const instrument of INSTRUMENT_SYMBOLS) {
      const spec = PYTH_FEEDS[instrument];
      expect(spec, instrument).not.toBeNull();
      if (!spec) continue;
      const feeds = spec.kind === 'spot' ? [spec] : spec.contracts;
      for (const feed of feeds) {
        const row = byId.get(feed.feedId);
        expect(row?.symbol, `${instrument} ${feed.feedId}`).toBe(feed.symbol);
        if (row?.expo !== undefined)
          expect(-row.expo, `${feed.symbol} exponent`).toBeGreaterThanOrEqual(
            INSTRUMENTS[instrument].priceScale,
          );
      }
    }
    expect(byId.get(PYTH_USDT_USD_FEED_ID)?.symbol).toBe('Crypto.USDT/USD');
  });

  it('a futures instrument follows its front month, rolls three days before the last trading day, and has no feed once the list runs out', () => {
    const wti = PYTH_FEEDS.WTIUSD;
    if (wti?.kind !== 'futures') throw new Error('WTI follows futures');
    expect(frontContract(wti, Date.UTC(2026, 6, 17, 23, 59))?.symbol).toBe('Commodities.WTIQ6/USD');
    expect(frontContract(wti, Date.UTC(2026, 6, 18))?.symbol).toBe('Commodities.WTIU6/USD');
    expect(frontContract(wti, Date.UTC(2026, 10, 16))?.symbol).toBe('Commodities.WTIZ6/USD');
    expect(frontContract(wti, Date.UTC(2026, 10, 17))?.symbol).toBe('Commodities.WTIF7/USD');
    expect(frontContract(wti, Date.UTC(2026, 11, 18))).toBeNull();
    // Late November 2026: every instrument has a feed (natural gas on the index, which never rolls).
    const late = pythFeedsAt(Date.UTC(2026, 10, 27));
    const symbolOf = (instrument: string) =>
      [...late.values()].find((feed) => feed.instrument === instrument)?.pythSymbol;
    expect(late.size).toBe(INSTRUMENT_SYMBOLS.length);
    expect(symbolOf('WTIUSD')).toBe('Commodities.WTIF7/USD');
    expect(symbolOf('NGASUSD')).toBe('Commodities.Index.NATGAS/USD');
    expect(symbolOf('COPPERUSD')).toBe('Commodities.CCZ6/USD');
    const january = new Set(
      [...pythFeedsAt(Date.UTC(2027, 0, 5)).values()].map((feed) => feed.instrument),
    );
    expect(january.has('WTIUSD')).toBe(false);
    expect(january.has('NGASUSD')).toBe(true);
    expect(FEEDS.size).toBe(INSTRUMENT_SYMBOLS.length);
  });

  it('the recorded stream’s BTC/USD price reads the same through the map as Pyth prints it', () => {
    const [tick] = ticks(parseHermesMessage(STREAM[0] ?? '', FEEDS));
    expect(formatPythPrice(tick?.priceMinor ?? 0n, -INSTRUMENTS.BTCUSDT.priceScale)).toBe(
      '61632.6',
    );
  });
});
