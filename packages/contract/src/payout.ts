import type { Outcome } from './instant.ts';
import { divCeil, divFloor } from './money.ts';

/**
 * The fee and payout rule of instant contracts (ARCHITECTURE §6), stated once: the server's
 * placement and settlement, the public replay and the order popup all compute with these, on
 * bigint minor units of the stake's asset. Rates are parts per million of the stake, as a
 * period stores them (`payout_rate_ppm`, `fee_rate_ppm`); the API shows them as decimal
 * strings with at most six places ("0.85"), which `ratePpm` reads back.
 *
 * Rounding always goes the house's way by the part of a unit: the fee rounds up, the
 * winnings round down.
 */

export const PPM = 1_000_000n;

/** A decimal rate string ("0.85", "0.002", "1") in parts per million; throws on anything else. */
export function ratePpm(rate: string): number {
  const match = /^(\d{1,6})(?:\.(\d{1,6}))?$/.exec(rate.trim());
  if (!match) throw new Error(`not a rate: ${rate}`);
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(6, '0'));
}

/** The fee of a stake, charged on placement on top of it, rounded up. */
export function feeOf(stakeMinor: bigint, feeRatePpm: number): bigint {
  return divCeil(stakeMinor * BigInt(feeRatePpm), PPM);
}

/** What a win credits: the stake and stake × rate, the rate's part rounded down. */
export function winPayoutOf(stakeMinor: bigint, payoutRatePpm: number): bigint {
  return stakeMinor + divFloor(stakeMinor * BigInt(payoutRatePpm), PPM);
}

/**
 * What settlement credits back to the available balance: the win payout on a win, nothing on
 * a loss, the stake on a tie (the fee is kept), stake and fee on a void (nothing was traded).
 */
export function payoutOf(
  outcome: Outcome,
  stakeMinor: bigint,
  feeMinor: bigint,
  payoutRatePpm: number,
): bigint {
  switch (outcome) {
    case 'win':
      return winPayoutOf(stakeMinor, payoutRatePpm);
    case 'loss':
      return 0n;
    case 'tie':
      return stakeMinor;
    case 'void':
      return stakeMinor + feeMinor;
  }
}

/** The order's result for its owner: payout less stake and fee (a tie costs the fee, a void nothing). */
export function profitOf(
  outcome: Outcome,
  stakeMinor: bigint,
  feeMinor: bigint,
  payoutRatePpm: number,
): bigint {
  return payoutOf(outcome, stakeMinor, feeMinor, payoutRatePpm) - stakeMinor - feeMinor;
}
