import type { Candle } from '@tradewind/contract/market';
import { formatAmount, parseAmount } from '@tradewind/contract/money';

/**
 * The simple moving average of the last `length` closes at each candle, exact: the closes in
 * minor units at the instrument's price scale, summed, divided and rounded half up, so the
 * figure the chart's legend shows is the average of the closes it lists. Null until `length`
 * candles are in the window, and for a window holding a close that is not a price.
 */
export function movingAverage(
  candles: readonly Candle[],
  length: number,
  scale: number,
): (string | null)[] {
  const closes = candles.map((candle) => parseAmount(candle.c, scale));
  const divisor = BigInt(length);
  let sum = 0n;
  let invalid = 0;
  return closes.map((close, i) => {
    if (close === undefined) invalid += 1;
    else sum += close;
    const leaving = i >= length ? closes[i - length] : null;
    if (leaving === undefined) invalid -= 1;
    else if (leaving !== null) sum -= leaving;
    if (i < length - 1 || invalid > 0) return null;
    return formatAmount((2n * sum + divisor) / (2n * divisor), scale);
  });
}
