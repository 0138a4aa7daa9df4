import { parseAmount } from '@tradewind/contract/money';
import { feeOf, ratePpm } from '@tradewind/contract/payout';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import en from '@/features/trade/locales/en.json' with { type: 'json' };
import {
  type OrderState,
  largestAffordableStake,
  lossLimitRoom,
  maxStake,
  orderBlockers,
  quickStake,
} from '@/features/trade/order-amounts.ts';

const terms = { feeRate: '0.002', minStake: '10', maxStake: '10000' };
const minor = (amount: string) => parseAmount(amount, 6) as bigint;
const cost = (stake: string, feeRate = terms.feeRate) =>
  minor(stake) + feeOf(minor(stake), ratePpm(feeRate));

describe('the order popup quick amounts (exact, fee on top, never more decimals than USDT has)', () => {
  it('25 %, 50 %, 75 % are that share of the available balance, rounded down to 6 places', () => {
    expect(quickStake('200', 25, terms.feeRate)).toBe('50');
    expect(quickStake('200', 50, terms.feeRate)).toBe('100');
    expect(quickStake('200', 75, terms.feeRate)).toBe('150');
    expect(quickStake('0.000003', 50, terms.feeRate)).toBe('0.000001');
    expect(quickStake('33.333333', 50, terms.feeRate)).toBe('16.666666');
    expect(quickStake('0', 75, terms.feeRate)).toBe('0');
  });

  it('100 % leaves room for the fee: stake + fee is at most the balance', () => {
    const stake = quickStake('200', 100, terms.feeRate);
    expect(stake).toBe('199.600798');
    expect(cost(stake)).toBeLessThanOrEqual(minor('200'));
    expect(cost(`${stake.slice(0, -1)}9`)).toBeGreaterThan(minor('200'));
    // Without a fee the whole balance is the stake.
    expect(quickStake('200', 100, '0')).toBe('200');
  });

  it('the largest affordable stake is exactly the largest whose stake + fee fits (fee rounded up)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 500_000 }),
        (budget, feePpm) => {
          const rate = `0.${String(feePpm).padStart(6, '0')}`;
          const stake = largestAffordableStake(budget, rate);
          const costOf = (s: bigint) => s + feeOf(s, feePpm);
          expect(stake).toBeGreaterThanOrEqual(0n);
          expect(costOf(stake)).toBeLessThanOrEqual(budget < 0n ? 0n : budget);
          expect(costOf(stake + 1n)).toBeGreaterThan(budget);
        },
      ),
    );
  });

  it('Max is the largest stake the server accepts: balance and fee, then the period maximum', () => {
    const stake = maxStake('200', terms) as string;
    expect(stake).toBe('199.600798');
    expect(cost(stake)).toBeLessThanOrEqual(minor('200'));
    expect(orderBlockers(state({ amount: stake, available: '200' }))).toEqual([]);
    expect(maxStake('50000', terms)).toBe('10000');
    expect(maxStake('10.02', terms)).toBe('10');
  });

  it('Max is null when the balance cannot pay the minimum and its fee', () => {
    expect(maxStake('10.019999', terms)).toBeNull();
    expect(maxStake('0', terms)).toBeNull();
  });

  it('Max keeps stake + fee within the room under the daily loss limit', () => {
    expect(lossLimitRoom('50', '12.5', '20.04')).toBe('17.46');
    expect(lossLimitRoom('50', '30', '25')).toBe('0');
    expect(lossLimitRoom(null, '30', '25')).toBeNull();
    // 17.425149 + a fee of 0.034851 is exactly the room; one unit more would pass it.
    expect(maxStake('200', terms, '17.46')).toBe('17.425149');
    expect(cost('17.425149')).toBe(minor('17.46'));
    expect(maxStake('200', terms, '5')).toBeNull();
  });
});

const state = (overrides: Partial<OrderState> = {}): OrderState => ({
  tradable: true,
  price: '91234.56',
  period: terms,
  tradePasswordSet: true,
  amount: '10',
  available: '200',
  lossRoom: null,
  ...overrides,
});

describe('why Confirm is off: one reason for every disabled state', () => {
  it('a placeable order has none', () => {
    expect(orderBlockers(state())).toEqual([]);
    expect(orderBlockers(state({ amount: ' 10000 ', available: '20020' }))).toEqual([]);
  });

  it('too many decimals says how many are allowed', () => {
    expect(orderBlockers(state({ amount: '1.1234567' }))).toEqual([
      { kind: 'amount_decimals', decimals: 6 },
    ]);
    expect(orderBlockers(state({ amount: '10.123456' }))).toEqual([]);
  });

  it('an empty amount asks for one within the limits; text that is not an amount says so', () => {
    expect(orderBlockers(state({ amount: '' }))).toEqual([
      { kind: 'amount_empty', min: '10', max: '10000' },
    ]);
    for (const amount of ['abc', '1,5', '-10', '1e3', '.5', '10.'])
      expect(orderBlockers(state({ amount })), amount).toEqual([{ kind: 'amount_format' }]);
  });

  it('below the minimum and above the maximum of the period', () => {
    expect(orderBlockers(state({ amount: '9.999999' }))).toEqual([
      { kind: 'below_min', min: '10' },
    ]);
    expect(orderBlockers(state({ amount: '0' }))).toEqual([{ kind: 'below_min', min: '10' }]);
    expect(orderBlockers(state({ amount: '10000.000001', available: '99999' }))).toEqual([
      { kind: 'above_max', max: '10000' },
    ]);
  });

  it('more than the available balance once the fee is added', () => {
    expect(orderBlockers(state({ amount: '200', available: '200' }))).toEqual([
      { kind: 'insufficient', total: '200.4', available: '200' },
    ]);
    expect(orderBlockers(state({ amount: '199.600798', available: '200' }))).toEqual([]);
    expect(orderBlockers(state({ amount: '199.600799', available: '200' }))).toEqual([
      { kind: 'insufficient', total: '200.000001', available: '200' },
    ]);
    // While the balance loads the server is left to judge.
    expect(orderBlockers(state({ amount: '5000', available: undefined }))).toEqual([]);
  });

  it('past the daily loss limit counts stake + fee', () => {
    expect(orderBlockers(state({ amount: '17.42', lossRoom: '17.46' }))).toEqual([]);
    expect(orderBlockers(state({ amount: '17.43', lossRoom: '17.46' }))).toEqual([
      { kind: 'loss_limit', room: '17.46' },
    ]);
  });

  it('the market, the price, the period and the trading password', () => {
    expect(orderBlockers(state({ tradable: false }))).toEqual([{ kind: 'not_tradable' }]);
    expect(orderBlockers(state({ price: null }))).toEqual([{ kind: 'no_price' }]);
    expect(orderBlockers(state({ period: undefined }))).toEqual([{ kind: 'no_period' }]);
    expect(orderBlockers(state({ tradePasswordSet: false, amount: '' }))).toEqual([
      { kind: 'trade_password_not_set' },
      { kind: 'amount_empty', min: '10', max: '10000' },
    ]);
  });

  it('every reason has an English message (the locale test holds the other six to the same keys)', () => {
    const kinds = [
      'not_tradable',
      'no_price',
      'no_period',
      'amount_empty',
      'amount_format',
      'amount_decimals',
      'below_min',
      'above_max',
      'loss_limit',
      'insufficient',
    ];
    const why = (en.trade as Record<string, unknown>).why as Record<string, string> | undefined;
    for (const kind of kinds) expect(why?.[kind], kind).toMatch(/\S/);
  });
});
