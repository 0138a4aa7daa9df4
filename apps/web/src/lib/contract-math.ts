import {
  CONTRACT_ASSET,
  type Direction,
  type Outcome,
  outcomeOf,
} from '@tradewind/contract/instant';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { feeOf, profitOf, ratePpm, winPayoutOf } from '@tradewind/contract/payout';
import { ASSETS } from '@tradewind/contract/wallet';

/**
 * The figures the order popup and the contract screens show, computed exactly on bigint
 * minor units by the rule settlement applies (`@tradewind/contract/payout`): the fee rounds
 * up (the user pays the part of a unit), the winnings round down (the house keeps it).
 * Nothing here is a float.
 */

export const STAKE_SCALE = ASSETS[CONTRACT_ASSET].scale;

/** The fee of a stake at a rate as the API shows it ("0.002"). */
export function feeMinor(stakeMinor: bigint, feeRate: string): bigint {
  return feeOf(stakeMinor, ratePpm(feeRate));
}

/** What a win credits at a rate as the API shows it ("0.85"). */
export function winPayoutMinor(stakeMinor: bigint, payoutRate: string): bigint {
  return winPayoutOf(stakeMinor, ratePpm(payoutRate));
}

export interface OrderQuote {
  stake: string;
  fee: string;
  /** Stake + fee: what placing the order locks in the futures account. */
  total: string;
  /** Credited on a win. */
  payoutOnWin: string;
  /** Payout − stake − fee. */
  profitOnWin: string;
  /** Stake + fee, as a positive amount. */
  lossOnLoss: string;
}

/** The popup's figures for a stake typed by the user; null while it is not a valid USDT amount. */
export function quoteOrder(
  amount: string,
  period: { payoutRate: string; feeRate: string },
): OrderQuote | null {
  const stake = parseAmount(amount.trim(), STAKE_SCALE);
  if (stake === undefined || stake <= 0n) return null;
  const fee = feeMinor(stake, period.feeRate);
  const payout = winPayoutMinor(stake, period.payoutRate);
  const format = (minor: bigint) => formatAmount(minor, STAKE_SCALE);
  return {
    stake: format(stake),
    fee: format(fee),
    total: format(stake + fee),
    payoutOnWin: format(payout),
    profitOnWin: format(payout - stake - fee),
    lossOnLoss: format(stake + fee),
  };
}

/** Compares two decimal strings exactly (-1, 0, 1), whatever their number of places. */
export function compareDecimal(a: string, b: string): number {
  const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const x = parseAmount(a, places);
  const y = parseAmount(b, places);
  if (x === undefined || y === undefined) throw new Error(`not comparable: ${a}, ${b}`);
  return x === y ? 0 : x > y ? 1 : -1;
}

/** The outcome if the order were delivered at `price` now. */
export function outcomeAt(direction: Direction, openPrice: string, price: string): Outcome {
  const places = Math.max(openPrice.split('.')[1]?.length ?? 0, price.split('.')[1]?.length ?? 0);
  const open = parseAmount(openPrice, places);
  const close = parseAmount(price, places);
  if (open === undefined || close === undefined)
    throw new Error(`not a price: ${openPrice}, ${price}`);
  return outcomeOf(direction, open, close);
}

/**
 * An open order's profit or loss if it were delivered at `price` (a live ticker price):
 * a win earns the payout less stake and fee, a tie costs the fee, a loss stake and fee.
 */
export function pnlAt(
  order: {
    direction: Direction;
    stake: string;
    fee: string;
    payoutRate: string;
    openTick: { price: string };
  },
  price: string,
): string {
  const stake = parseAmount(order.stake, STAKE_SCALE);
  const fee = parseAmount(order.fee, STAKE_SCALE);
  if (stake === undefined || fee === undefined) throw new Error('bad order amounts');
  const outcome = outcomeAt(order.direction, order.openTick.price, price);
  return formatAmount(profitOf(outcome, stake, fee, ratePpm(order.payoutRate)), STAKE_SCALE);
}

/** A rate ("0.85") as a percentage string ("85", "87.5"), exactly. */
export function ratePct(rate: string): string {
  // ppm ÷ 1,000,000 × 100 = ppm ÷ 10,000: the percentage with four places.
  return formatAmount(BigInt(ratePpm(rate)), 4);
}

/** A signed decimal string's sign: the colour of a profit or a change. */
export function signOf(value: string | null | undefined): -1 | 0 | 1 {
  if (!value) return 0;
  if (value.startsWith('-')) return /[1-9]/.test(value) ? -1 : 0;
  return /[1-9]/.test(value) ? 1 : 0;
}
