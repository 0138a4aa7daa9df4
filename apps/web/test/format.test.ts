import { describe, expect, it } from 'vitest';
import { formatDecimal } from '@/lib/format.ts';

describe('amount display', () => {
  it.each([
    ['12345.5', 'en', 2, '12,345.50'],
    ['12345.5', 'de', 2, '12.345,50'],
    ['1234567.123456', 'fr', 0, '1\u202f234\u202f567,123456'],
    ['0.00000001', 'en', 0, '0.00000001'],
    ['-3.2', 'zh_CN', 0, '-3.2'],
    ['98765432109876543210.123', 'en', 0, '98,765,432,109,876,543,210.123'],
    ['not-a-number', 'en', 0, 'not-a-number'],
  ])('%s in %s → %s (never through a float)', (value, language, decimals, expected) => {
    expect(formatDecimal(value, language, decimals)).toBe(expected);
  });
});
