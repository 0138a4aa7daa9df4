import { MINING_ASSET } from '@tradewind/contract/mining';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';

const SCALE = ASSETS[MINING_ASSET].scale;

/** unit price × quantity, exactly (decimal strings in, decimal string out). */
export function totalOf(unitPrice: string, quantity: number): string {
  const unit = parseAmount(unitPrice, SCALE) ?? 0n;
  return formatAmount(unit * BigInt(Math.max(0, Math.trunc(quantity))), SCALE);
}

/** Is `a` ≥ `b` (decimal strings)? */
export function atLeast(a: string, b: string): boolean {
  return (parseAmount(a, SCALE) ?? 0n) >= (parseAmount(b, SCALE) ?? 0n);
}

/** A daily rate as a fraction ("0.003") in percent ("0.3"), by moving the decimal point. */
export function ratePercent(rate: string): string {
  const shifted = parseAmount(rate, 8);
  return shifted === undefined ? rate : formatAmount(shifted, 6);
}

/** The fewest units reaching the minimum investment. */
export function minQuantity(unitPrice: string, minInvestment: string): number {
  const unit = parseAmount(unitPrice, SCALE) ?? 1n;
  const min = parseAmount(minInvestment, SCALE) ?? 0n;
  return Number((min + unit - 1n) / unit) || 1;
}
