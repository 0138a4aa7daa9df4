import { formatAmount } from '@tradewind/contract/money';
import { feeOf, payoutOf } from '@tradewind/contract/payout';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  feeMinor,
  outcomeAt,
  pnlAt,
  quoteOrder,
  ratePct,
  signOf,
  winPayoutMinor,
} from '@/lib/contract-math.ts';
import { formatCountdown, learnServerTime, msUntil, resetServerClock } from '@/lib/server-clock.ts';

describe('order popup figures (exact, rounded like settlement)', () => {
  it('fee rounds up to the micro-USDT, winnings round down', () => {
    // 0.333333 × 0.002 = 0.000666666 → 0.000667
    expect(feeMinor(333_333n, '0.002')).toBe(667n);
    // 0.333333 × 0.85 = 0.28333305 → 0.283333
    expect(winPayoutMinor(333_333n, '0.85')).toBe(333_333n + 283_333n);
    expect(feeMinor(10_000_000n, '0')).toBe(0n);
  });

  it('quoteOrder gives stake, fee, total, payout and profit on a win as decimal strings', () => {
    expect(quoteOrder('100', { payoutRate: '0.85', feeRate: '0.002' })).toEqual({
      stake: '100',
      fee: '0.2',
      total: '100.2',
      payoutOnWin: '185',
      profitOnWin: '84.8',
      lossOnLoss: '100.2',
    });
    expect(quoteOrder('0.1', { payoutRate: '0.9', feeRate: '0.0015' })?.fee).toBe('0.00015');
  });

  it('the popup quotes what settlement pays: the rule settlement applies, for any stake and rates', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (stake, payoutPpm, feePpm) => {
          const rate = (ppm: number) => formatAmount(BigInt(ppm), 6);
          const quote = quoteOrder(formatAmount(stake, 6), {
            payoutRate: rate(payoutPpm),
            feeRate: rate(feePpm),
          });
          const fee = feeOf(stake, feePpm);
          expect(quote?.fee).toBe(formatAmount(fee, 6));
          expect(quote?.payoutOnWin).toBe(formatAmount(payoutOf('win', stake, fee, payoutPpm), 6));
        },
      ),
    );
  });

  it('quoteOrder refuses what is not a USDT amount (no silent rounding)', () => {
    for (const bad of ['', 'abc', '-5', '0', '1e3', '1.1234567'])
      expect(quoteOrder(bad, { payoutRate: '0.85', feeRate: '0.002' }), bad).toBeNull();
  });

  it('a live price gives the outcome and P/L an open order would have now', () => {
    const order = {
      direction: 'up' as const,
      stake: '100',
      fee: '0.2',
      payoutRate: '0.85',
      openTick: { price: '100000.5' },
    };
    expect(outcomeAt('up', '100000.5', '100000.51')).toBe('win');
    expect(pnlAt(order, '100000.51')).toBe('84.8');
    expect(pnlAt(order, '100000.50')).toBe('-0.2');
    expect(pnlAt(order, '99999')).toBe('-100.2');
    expect(pnlAt({ ...order, direction: 'down' }, '99999')).toBe('84.8');
  });

  it('rates as percentages, exactly', () => {
    expect(ratePct('0.85')).toBe('85');
    expect(ratePct('0.875')).toBe('87.5');
    expect(ratePct('0.002')).toBe('0.2');
    expect(ratePct('1')).toBe('100');
  });

  it('signOf reads a decimal string’s sign (zero is neither)', () => {
    expect(signOf('1.25')).toBe(1);
    expect(signOf('-0.01')).toBe(-1);
    expect(signOf('0.00')).toBe(0);
    expect(signOf('-0.00')).toBe(0);
    expect(signOf(null)).toBe(0);
  });
});

describe('countdowns on the server clock', () => {
  it('learns the offset from an order with time left and counts down from it', () => {
    resetServerClock();
    const received = Date.parse('2026-11-22T10:00:00.000Z');
    // The server says 30 s remain until 10:05:30: its clock reads 10:05:00 while ours reads 10:00:00.
    learnServerTime({ deliverAt: '2026-11-22T10:05:30.000Z', remainingMs: 30_000 }, received);
    expect(msUntil('2026-11-22T10:05:30.000Z', received)).toBe(30_000);
    expect(msUntil('2026-11-22T10:05:30.000Z', received + 10_000)).toBe(20_000);
    expect(msUntil('2026-11-22T10:05:30.000Z', received + 60_000)).toBe(0);
    // A delivered order (0 ms left) teaches nothing.
    learnServerTime({ deliverAt: '2000-01-01T00:00:00.000Z', remainingMs: 0 }, received);
    expect(msUntil('2026-11-22T10:05:30.000Z', received)).toBe(30_000);
  });

  it('formats as m:ss or h:mm:ss, rounding up so 0:00 means delivered', () => {
    expect(formatCountdown(30_000)).toBe('0:30');
    expect(formatCountdown(29_001)).toBe('0:30');
    expect(formatCountdown(500)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5)).toBe('0:00');
    expect(formatCountdown(305_000)).toBe('5:05');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
  });
});
