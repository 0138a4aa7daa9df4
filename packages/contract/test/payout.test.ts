import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../src/instant.ts';
import { feeOf, payoutOf, profitOf, ratePpm, winPayoutOf } from '../src/payout.ts';

describe('the fee and payout rule', () => {
  it('the fee rounds up to the minor unit, the winnings down', () => {
    // 0.333333 × 0.002 = 0.000666666 → 0.000667
    expect(feeOf(333_333n, 2_000)).toBe(667n);
    // 0.333333 × 0.85 = 0.28333305 → 0.283333
    expect(winPayoutOf(333_333n, 850_000)).toBe(333_333n + 283_333n);
    expect(feeOf(10_000_000n, 0)).toBe(0n);
    expect(feeOf(1n, 1)).toBe(1n);
    expect(winPayoutOf(1n, 999_999)).toBe(1n);
  });

  it('pays by the outcome: the win payout, nothing, the stake back, stake and fee back', () => {
    const stake = 100_000_000n;
    const fee = 200_000n;
    expect(payoutOf('win', stake, fee, 850_000)).toBe(185_000_000n);
    expect(payoutOf('loss', stake, fee, 850_000)).toBe(0n);
    expect(payoutOf('tie', stake, fee, 850_000)).toBe(stake);
    expect(payoutOf('void', stake, fee, 850_000)).toBe(stake + fee);
    expect(OUTCOMES.map((outcome) => profitOf(outcome, stake, fee, 850_000))).toEqual([
      84_800_000n,
      -100_200_000n,
      -200_000n,
      0n,
    ]);
  });

  it('reads a rate as the API shows it, and refuses anything else', () => {
    expect(ratePpm('0.85')).toBe(850_000);
    expect(ratePpm('0.002')).toBe(2_000);
    expect(ratePpm('0.000001')).toBe(1);
    expect(ratePpm('1')).toBe(1_000_000);
    expect(ratePpm('1.5')).toBe(1_500_000);
    for (const bad of ['', '.5', '0.1234567', '-0.1', '1e-3', 'abc', '0,5'])
      expect(() => ratePpm(bad), bad).toThrow(/not a rate/);
  });

  it('the house never pays a fraction of a unit: winnings ≤ stake × rate, fee ≥ stake × rate', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (stake, ppm) => {
          const winnings = winPayoutOf(stake, ppm) - stake;
          expect(winnings * 1_000_000n <= stake * BigInt(ppm)).toBe(true);
          expect((winnings + 1n) * 1_000_000n > stake * BigInt(ppm)).toBe(true);
          const fee = feeOf(stake, ppm);
          expect(fee * 1_000_000n >= stake * BigInt(ppm)).toBe(true);
          expect((fee - 1n) * 1_000_000n < stake * BigInt(ppm)).toBe(true);
        },
      ),
    );
  });
});
