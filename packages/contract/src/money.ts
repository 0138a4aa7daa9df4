import * as z from 'zod/mini';

/**
 * Money is a bigint of minor units with the asset's fixed scale; on the wire it is a
 * decimal string ("12.5"). A float never holds money. These functions are the only way
 * between the two forms, on both sides.
 */

/** More than any real amount; keeps numeric(38,0) safe with room for sums. */
export const MAX_AMOUNT_DIGITS = 30;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a plain decimal string ("0.5", "12", "1000.000001") to minor units. Returns
 * undefined for anything else: signs, exponents, spaces, more decimals than the scale
 * allows (no silent rounding), or too many digits.
 */
export function parseAmount(text: string, scale: number): bigint | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > scale) return undefined;
  const digits = (whole + fraction.padEnd(scale, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_AMOUNT_DIGITS) return undefined;
  return BigInt(digits);
}

/** Minor units to a decimal string without trailing zeros: 12500000n, 6 → "12.5". */
export function formatAmount(minor: bigint, scale: number): string {
  // Most balances a reply lists are zero.
  if (minor === 0n) return '0';
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Same, with exactly `decimals` places (for display columns), rounding toward zero. */
export function formatFixed(minor: bigint, scale: number, decimals: number): string {
  const shift = scale - decimals;
  const truncated = shift >= 0 ? minor / 10n ** BigInt(shift) : minor * 10n ** BigInt(-shift);
  const negative = truncated < 0n;
  const digits = (negative ? -truncated : truncated).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Integer division rounding down (toward negative infinity): the house's side of a split. */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Integer division rounding up: what the user pays when a fee is split. */
export function divCeil(a: bigint, b: bigint): bigint {
  return -divFloor(-a, b);
}

/**
 * A positive decimal amount on the wire; the asset's scale is checked by the service. Parsed
 * exactly as the published pattern says: no whitespace is trimmed away (" 10" is refused), so
 * what a client reads in the OpenAPI document is what the server accepts.
 */
export const amountSchema = z.string({ error: 'validation.required' }).check(
  z.regex(/^\d{1,30}(\.\d{1,18})?$/, { error: 'validation.amount_format', abort: true }),
  z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
);
