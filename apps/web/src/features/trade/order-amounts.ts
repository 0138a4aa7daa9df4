import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { PPM, feeOf, ratePpm } from '@tradewind/contract/payout';
import { STAKE_SCALE } from '@/lib/contract-math.ts';

/**
 * The order popup's amounts and the reasons its Confirm is off, on bigint minor units of
 * USDT by the server's own rule (`@tradewind/contract/payout`: the fee rounds up and comes on
 * top of the stake). Whatever these produce has at most the asset's decimals, so the server
 * never refuses it for precision.
 */

export const QUICK_PERCENTS = [25, 50, 75, 100] as const;
export type QuickPercent = (typeof QUICK_PERCENTS)[number];

/** The terms of a period that bound a stake (as the config gives them). */
export interface StakeTerms {
  feeRate: string;
  minStake: string;
  maxStake: string;
}

const minorOf = (amount: string): bigint => {
  const minor = parseAmount(amount, STAKE_SCALE);
  if (minor === undefined) throw new Error(`not a USDT amount: ${amount}`);
  return minor;
};

/** The largest stake whose stake + fee fits in `budgetMinor` (0 when none does). */
export function largestAffordableStake(budgetMinor: bigint, feeRate: string): bigint {
  if (budgetMinor <= 0n) return 0n;
  const ppm = ratePpm(feeRate);
  const cost = (stake: bigint) => stake + feeOf(stake, ppm);
  // budget ÷ (1 + rate) is within a unit of the answer: the fee's rounding moves it by at most one.
  let stake = (budgetMinor * PPM) / (PPM + BigInt(ppm));
  for (let step = 0; stake > 0n && cost(stake) > budgetMinor; step++) {
    if (step > 2) throw new Error('largestAffordableStake: the estimate is off by more than 2');
    stake -= 1n;
  }
  for (let step = 0; cost(stake + 1n) <= budgetMinor; step++) {
    if (step > 2) throw new Error('largestAffordableStake: the estimate is off by more than 2');
    stake += 1n;
  }
  return stake;
}

/**
 * A quick amount: `percent` of the available balance, rounded down to the asset's precision.
 * 100 % leaves room for the fee (the whole balance as a stake could not be placed); the
 * period's limits are not applied, so the reason line says when the amount is out of them.
 */
export function quickStake(available: string, percent: QuickPercent, feeRate: string): string {
  const availableMinor = minorOf(available);
  const share = (availableMinor * BigInt(percent)) / 100n;
  const affordable = largestAffordableStake(availableMinor, feeRate);
  return formatAmount(share < affordable ? share : affordable, STAKE_SCALE);
}

/**
 * Max: the largest stake the server would accept from this balance: stake + fee within the
 * available balance and the room left under the daily loss limit, and within the period's
 * minimum and maximum. Null when no stake is both affordable and at least the minimum.
 */
export function maxStake(
  available: string,
  terms: StakeTerms,
  lossRoom: string | null = null,
): string | null {
  let budget = minorOf(available);
  if (lossRoom !== null) {
    const room = minorOf(lossRoom);
    if (room < budget) budget = room;
  }
  const affordable = largestAffordableStake(budget, terms.feeRate);
  const most = minorOf(terms.maxStake);
  const stake = affordable < most ? affordable : most;
  return stake >= minorOf(terms.minStake) ? formatAmount(stake, STAKE_SCALE) : null;
}

/**
 * Room left under the user's daily loss limit for one more order's stake + fee, as the server
 * counts it: limit − today's losses and fees − what the open orders could lose (their stakes
 * and fees, which is what the futures account has locked). Null without a limit; never below 0.
 */
export function lossLimitRoom(
  dailyLossLimit: string | null,
  lossToday: string,
  futuresLocked: string,
): string | null {
  if (dailyLossLimit === null) return null;
  const room = minorOf(dailyLossLimit) - minorOf(lossToday) - minorOf(futuresLocked);
  return formatAmount(room > 0n ? room : 0n, STAKE_SCALE);
}

/** Why Confirm is off: one of these, each with its own message under the amount. */
export type OrderBlocker =
  | { kind: 'not_tradable' }
  | { kind: 'no_price' }
  | { kind: 'no_period' }
  | { kind: 'trade_password_not_set' }
  | { kind: 'amount_empty'; min: string; max: string }
  | { kind: 'amount_format' }
  | { kind: 'amount_decimals'; decimals: number }
  | { kind: 'below_min'; min: string }
  | { kind: 'above_max'; max: string }
  | { kind: 'loss_limit'; room: string }
  | { kind: 'insufficient'; total: string; available: string };

export interface OrderState {
  /** The instrument is open for trading (`Instrument.tradable`). */
  tradable: boolean;
  /** The live price the order would open at; null while there is no fresh one. */
  price: string | null;
  /** The chosen period; undefined when none is (or none is configured). */
  period: StakeTerms | undefined;
  /** The user has set a trading password (spec §5: required before the first order). */
  tradePasswordSet: boolean;
  /** The amount as typed. */
  amount: string;
  /** The futures account's available USDT; undefined while it loads (the server still checks). */
  available: string | undefined;
  /** `lossLimitRoom`, or null without a daily loss limit. */
  lossRoom: string | null;
}

/**
 * Everything that keeps Confirm off, in the order the server checks them (batcher.ts
 * `orderRefusal`): what is about the market and the account first, then at most one thing
 * about the amount. An empty list means the order can be sent.
 */
export function orderBlockers(state: OrderState): OrderBlocker[] {
  const blockers: OrderBlocker[] = [];
  if (!state.tradePasswordSet) blockers.push({ kind: 'trade_password_not_set' });
  if (!state.tradable) blockers.push({ kind: 'not_tradable' });
  else if (state.price === null) blockers.push({ kind: 'no_price' });
  const { period } = state;
  if (!period) return [...blockers, { kind: 'no_period' }];
  const amount = amountBlocker(state.amount.trim(), period, state.available, state.lossRoom);
  return amount ? [...blockers, amount] : blockers;
}

function amountBlocker(
  amount: string,
  period: StakeTerms,
  available: string | undefined,
  lossRoom: string | null,
): OrderBlocker | null {
  if (amount === '') return { kind: 'amount_empty', min: period.minStake, max: period.maxStake };
  const decimal = /^\d+(?:\.(\d+))?$/.exec(amount);
  if (!decimal) return { kind: 'amount_format' };
  if ((decimal[1]?.length ?? 0) > STAKE_SCALE)
    return { kind: 'amount_decimals', decimals: STAKE_SCALE };
  const stake = parseAmount(amount, STAKE_SCALE);
  if (stake === undefined) return { kind: 'amount_format' };
  if (stake < minorOf(period.minStake)) return { kind: 'below_min', min: period.minStake };
  if (stake > minorOf(period.maxStake)) return { kind: 'above_max', max: period.maxStake };
  const cost = stake + feeOf(stake, ratePpm(period.feeRate));
  if (lossRoom !== null && cost > minorOf(lossRoom)) return { kind: 'loss_limit', room: lossRoom };
  if (available !== undefined && cost > minorOf(available))
    return {
      kind: 'insufficient',
      total: formatAmount(cost, STAKE_SCALE),
      available,
    };
  return null;
}
