import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INDEX_FRESH_MS,
  type SourceQuote,
  deviationPpm,
  freshQuotes,
  indexPrice,
  medianPrice,
  outsideBand,
} from '../src/price-index.ts';

const at = 1_800_000_000_000;
const quote = (
  source: string,
  priceMinor: bigint,
  ageMs: number,
  extra: Partial<SourceQuote> = {},
): SourceQuote => ({
  source,
  priceMinor,
  sourceTimeMs: at - ageMs,
  receivedAtMs: at - ageMs + 40,
  ...extra,
});

describe('the settlement index', () => {
  it('is the median of each fresh source’s latest price at or before the instant', () => {
    const quotes = [
      quote('binance', 100n, 3_000),
      quote('binance', 103n, 500),
      quote('pyth', 101n, 1_000),
      quote('okx', 110n, 200),
    ];
    const result = indexPrice(quotes, at);
    expect(result?.priceMinor).toBe(103n);
    expect(result?.used.map((q) => `${q.source}:${q.priceMinor}`)).toEqual([
      'binance:103',
      'okx:110',
      'pyth:101',
    ]);
  });

  it('of two sources is their mean, rounded down; of one, that source', () => {
    expect(indexPrice([quote('binance', 100n, 0), quote('pyth', 103n, 0)], at)?.priceMinor).toBe(
      101n,
    );
    expect(indexPrice([quote('pyth', 103n, 4_999)], at)?.priceMinor).toBe(103n);
  });

  it('ignores quotes stamped after the instant, older than 5 s, or quarantined; none fresh is null', () => {
    expect(indexPrice([quote('binance', 100n, -1)], at)).toBeNull();
    expect(indexPrice([quote('binance', 100n, INDEX_FRESH_MS + 1)], at)).toBeNull();
    expect(indexPrice([quote('binance', 100n, 0, { quarantined: true })], at)).toBeNull();
    expect(indexPrice([quote('binance', 100n, INDEX_FRESH_MS)], at)?.priceMinor).toBe(100n);
    // A quarantined newer quote leaves the source's earlier fresh one in use.
    expect(
      indexPrice(
        [quote('binance', 100n, 2_000), quote('binance', 900n, 100, { quarantined: true })],
        at,
      )?.priceMinor,
    ).toBe(100n);
  });

  it('one source far off moves the median of three only to the next price, never to itself', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        (a, b, wild) => {
          const price =
            indexPrice([quote('a', a, 0), quote('b', b, 0), quote('c', wild, 0)], at)?.priceMinor ??
            0n;
          const [low, high] = a < b ? [a, b] : [b, a];
          expect(price >= low && price <= high).toBe(true);
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });

  it('median and freshness are order-independent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { minLength: 1, maxLength: 9 }),
        (prices) => {
          expect(medianPrice(prices)).toBe(medianPrice([...prices].reverse()));
        },
      ),
      { numRuns: 200, seed: 5 },
    );
    const quotes = [quote('x', 5n, 10), quote('y', 7n, 20), quote('x', 6n, 5)];
    expect(freshQuotes(quotes, at)).toEqual(freshQuotes([...quotes].reverse(), at));
  });

  it('measures the band in parts per million', () => {
    expect(deviationPpm(101n, 100n)).toBe(10_000n);
    expect(deviationPpm(99n, 100n)).toBe(10_000n);
    expect(outsideBand(102n, 100n, 20_000)).toBe(false);
    expect(outsideBand(103n, 100n, 20_000)).toBe(true);
  });
});
