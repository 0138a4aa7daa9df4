import { describe, expect, it } from 'vitest';
import { formatDecimal, formatPercent, formatSigned, truncateDecimal } from '@/lib/format.ts';

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

describe('market display helpers', () => {
  it('truncateDecimal cuts toward zero without rounding', () => {
    expect(truncateDecimal('1234.56789', 2)).toBe('1234.56');
    expect(truncateDecimal('1234.00001', 2)).toBe('1234');
    expect(truncateDecimal('7', 2)).toBe('7');
  });

  it('formatSigned always shows the sign of a profit, and none on zero', () => {
    expect(formatSigned('84.8', 'en')).toBe('+84.8');
    expect(formatSigned('-1234.5', 'de', 2)).toBe('-1.234,50');
    expect(formatSigned('0', 'en', 2)).toBe('0.00');
    expect(formatSigned('-0.00', 'en')).toBe('0.00');
  });

  it('formatPercent follows the language’s spacing and can show the sign', () => {
    expect(formatPercent('55.67', 'en', 2)).toBe('55.67%');
    expect(formatPercent('55.67', 'de', 2)).toBe('55,67\u00a0%');
    expect(formatPercent('-1.5', 'fr', 2, true)).toBe('-1,50\u00a0%');
    expect(formatPercent('0.09', 'zh_CN', 2, true)).toBe('+0.09%');
  });
});
