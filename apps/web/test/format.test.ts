import { describe, expect, it } from 'vitest';
import {
  formatBalance,
  formatDateTime,
  formatDecimal,
  formatPercent,
  formatSigned,
  formatUsdt,
  truncateDecimal,
} from '@/lib/format.ts';

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

describe('formatters', () => {
  it('are made once per language and options, not per value (a price list formats on every tick)', () => {
    const made = { number: 0, date: 0 };
    const { NumberFormat, DateTimeFormat } = Intl;
    const countingNumber = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made.number += 1;
      return new NumberFormat(...args);
    } as unknown as typeof Intl.NumberFormat;
    const countingDate = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      made.date += 1;
      return new DateTimeFormat(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    Intl.NumberFormat = countingNumber;
    Intl.DateTimeFormat = countingDate;
    try {
      // Italian: no other test in this file formats in it, so nothing of it is cached yet.
      const shown = new Set<string>();
      for (let i = 0; i < 100; i++) {
        shown.add(formatDecimal(`${1000 + i}.5`, 'it', 2));
        shown.add(formatPercent(`${i}.25`, 'it', 2, true));
        shown.add(formatDateTime(new Date(Date.UTC(2026, 10, 1 + (i % 28))).toISOString(), 'it'));
      }
      expect(shown.size).toBe(100 + 100 + 28);
      expect(formatDecimal('1234.5', 'it', 2)).toBe('1.234,50');
      // Grouping, the decimal separator and the percent pattern: three number formats; one date format.
      expect(made).toEqual({ number: 3, date: 1 });
    } finally {
      Intl.NumberFormat = NumberFormat;
      Intl.DateTimeFormat = DateTimeFormat;
    }
  });
});

describe('one rule per context', () => {
  it('USDT totals and values have exactly two places, cut toward zero, grouped for the language', () => {
    expect(formatUsdt('45667.595', 'en')).toBe('45,667.59');
    expect(formatUsdt('45604.6675', 'en')).toBe('45,604.66');
    expect(formatUsdt('45799.385053', 'de')).toBe('45.799,38');
    expect(formatUsdt('45799.385053', 'zh_CN')).toBe('45,799.38');
    expect(formatUsdt('12', 'en')).toBe('12.00');
    expect(formatUsdt('-0.004', 'en')).toBe('0.00');
    expect(formatUsdt('-3.5', 'fr')).toMatch(/^-3,50$/);
  });

  it('a balance shows its asset’s places whatever it holds; unknown assets get eight', () => {
    expect(formatBalance('0', 'BTC', 'en')).toBe('0.00000000');
    expect(formatBalance('0.5', 'BTC', 'en')).toBe('0.50000000');
    expect(formatBalance('1234.123456', 'USDT', 'de')).toBe('1.234,12');
    expect(formatBalance('7', 'XRP', 'en')).toBe('7.000000');
    expect(formatBalance('1', 'NEW', 'en')).toBe('1.00000000');
  });
});
