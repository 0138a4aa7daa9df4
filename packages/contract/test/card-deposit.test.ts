import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardDepositFee, quoteCardDeposit } from '../src/card-deposit.ts';
import { kycSubmitRequestSchema } from '../src/kyc.ts';

describe('bank-card deposit fee: rounded up, in the house’s favour', () => {
  it.each([
    // amount (minor units, USDT scale 6), fee in bps, expected fee
    [100_000_000n, 0, 0n],
    [100_000_000n, 150, 1_500_000n],
    [100_000_001n, 150, 1_500_001n], // 1.500000015 → 1.500001
    [1n, 1, 1n], // a millionth of a cent still costs one minor unit
    [9_999n, 1, 1n],
    [10_000n, 1, 1n],
    [10_001n, 1, 2n],
    [33_333_333n, 300, 1_000_000n], // 0.99999999 → 1
  ])('%s at %s bps → %s', (amount, bps, fee) => {
    expect(cardDepositFee(amount, bps)).toBe(fee);
  });

  it('is the smallest whole fee not below the exact one', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 5000 }),
        (amount, bps) => {
          const fee = cardDepositFee(amount, bps);
          const exact = amount * BigInt(bps); // fee × 10000 must cover this…
          expect(fee * 10_000n >= exact).toBe(true);
          // …and one less would not.
          expect((fee - 1n) * 10_000n < exact || fee === 0n).toBe(true);
        },
      ),
      { seed: 7, numRuns: 500 },
    );
  });

  it('quotes what the user will receive from the typed amount', () => {
    expect(quoteCardDeposit('100.000001', 150)).toMatchObject({
      amount: '100.000001',
      fee: '1.500001',
      actualAmount: '98.5',
    });
    expect(quoteCardDeposit(' 12.5 ', 0)).toMatchObject({ fee: '0', actualAmount: '12.5' });
    for (const bad of ['', 'abc', '-1', '0', '1.0000001', '1e3'])
      expect(quoteCardDeposit(bad, 150), bad).toBeUndefined();
  });
});

describe('KYC form schema', () => {
  const valid = {
    country: 'FR',
    lastName: "O'Brien",
    firstName: 'Zoë',
    documentType: 'passport',
    documentNumber: '12ab34567',
    frontFileId: '1',
    faceFileId: '2',
  };

  it('accepts names in any script and upper-cases the document number', () => {
    const parsed = kycSubmitRequestSchema.parse({ ...valid, lastName: '张', firstName: '伟' });
    expect(parsed.documentNumber).toBe('12AB34567');
    expect(
      kycSubmitRequestSchema.safeParse({ ...valid, lastName: 'Łukasiewicz-Ørsted' }).success,
    ).toBe(true);
  });

  it('needs the back photo except for a passport', () => {
    expect(kycSubmitRequestSchema.safeParse(valid).success).toBe(true);
    const idCard = kycSubmitRequestSchema.safeParse({ ...valid, documentType: 'id_card' });
    expect(idCard.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['backFileId', 'validation.kyc_back_required'],
    ]);
  });
});
