import type { Candle } from '@tradewind/contract/market';
import { describe, expect, it } from 'vitest';
import { movingAverage } from '@/features/trade/moving-average.ts';

const candles = (closes: string[]): Candle[] =>
  closes.map((c, i) => ({ t: i * 60_000, o: c, h: c, l: c, c, v: '1' }));

describe('the chart’s moving averages', () => {
  it('average the last n closes exactly, rounding half up at the price scale', () => {
    expect(movingAverage(candles(['1.00', '2.00', '4.00', '5.01']), 3, 2)).toEqual([
      null,
      null,
      '2.33', // 7 / 3 = 2.333…
      '3.67', // 11.01 / 3 = 3.67
    ]);
    // 0.1 + 0.2 as floats is 0.30000000000000004; here it is what the closes say.
    expect(movingAverage(candles(['0.1', '0.2']), 2, 1)).toEqual([null, '0.2']); // 0.15 → 0.2
    expect(movingAverage(candles(['0.01', '0.02']), 2, 2)).toEqual([null, '0.02']); // 0.015 → 0.02
  });

  it('a window holding a close that is not a price has no average; later windows do', () => {
    const out = movingAverage(candles(['1', 'x', '3', '5', '7']), 2, 0);
    expect(out).toEqual([null, null, null, '4', '6']);
  });

  it('MA(25) of a long run matches the sum of its window', () => {
    const closes = Array.from(
      { length: 60 },
      (_, i) => `${100 + i}.${String(i % 100).padStart(2, '0')}`,
    );
    const out = movingAverage(candles(closes), 25, 2);
    expect(out.slice(0, 24).every((v) => v === null)).toBe(true);
    // Window 35..59: closes 135.35 … 159.59, mean 147.47.
    expect(out[59]).toBe('147.47');
  });
});
