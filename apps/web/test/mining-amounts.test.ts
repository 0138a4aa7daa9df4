import { describe, expect, it } from 'vitest';
import { atLeast, minQuantity, ratePercent, totalOf } from '@/features/mining/amounts.ts';

describe('mining amounts (exact decimals, never floats)', () => {
  it('quantity × unit price', () => {
    expect(totalOf('100', 3)).toBe('300');
    expect(totalOf('0.1', 3)).toBe('0.3');
    expect(totalOf('0.000001', 7)).toBe('0.000007');
    expect(totalOf('199.99', 0)).toBe('0');
  });

  it('a daily rate in percent, by moving the decimal point', () => {
    expect(ratePercent('0.003')).toBe('0.3');
    expect(ratePercent('0.0005')).toBe('0.05');
    expect(ratePercent('1')).toBe('100');
  });

  it('the fewest units reaching the minimum investment', () => {
    expect(minQuantity('100', '100')).toBe(1);
    expect(minQuantity('200', '400')).toBe(2);
    expect(minQuantity('300', '1000')).toBe(4);
  });

  it('compares balances exactly', () => {
    expect(atLeast('300.000001', '300')).toBe(true);
    expect(atLeast('299.999999', '300')).toBe(false);
  });
});
