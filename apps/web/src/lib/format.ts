import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';
import './numbers.css';

/**
 * Intl's formatters (and what is read from them), made once per language and options: making
 * one costs about as much as formatting with it thirty times, and a price list formats every
 * price and change on each tick (on Home, formatting was the page's costliest script while it opened).
 */
const made = new Map<string, unknown>();

function once<T>(key: string, make: () => T): T {
  if (!made.has(key)) made.set(key, make());
  return made.get(key) as T;
}

const numberFormat = (tag: string, options: Intl.NumberFormatOptions = {}) =>
  once(`number ${tag} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options));

/** The language's date-time formatter for these options (made once, like the number formats). */
function dateTimeFormat(
  language: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const tag = LANGUAGE_TAGS[normalizeLanguage(language)];
  return once(
    `date ${tag} ${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(tag, options),
  );
}

/**
 * Formats a decimal string from the API ("12345.5") for display in the user's language,
 * grouping the whole part with Intl.NumberFormat on a bigint: the value is never a float.
 * `minDecimals` pads the fraction (e.g. 2 for USDT totals); the fraction is never rounded.
 */
export function formatDecimal(value: string, language: string, minDecimals = 0): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const tag = LANGUAGE_TAGS[normalizeLanguage(language)];
  const grouped = numberFormat(tag, { useGrouping: true }).format(BigInt(whole));
  const separator = once(
    `separator ${tag}`,
    () =>
      numberFormat(tag)
        .formatToParts(1.5)
        .find((part) => part.type === 'decimal')?.value ?? '.',
  );
  const padded = fraction.padEnd(minDecimals, '0');
  return `${sign}${grouped}${padded ? `${separator}${padded}` : ''}`;
}

/** A timestamp from the API in the user's language (display only). */
export function formatDateTime(
  iso: string,
  language: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return dateTimeFormat(language, options).format(new Date(iso));
}

/** Cuts a decimal string to at most `places` decimals (toward zero), e.g. a volume for display. */
export function truncateDecimal(value: string, places: number): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const kept = fraction.slice(0, places).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : whole;
}

/** A signed amount with its sign always shown ("+84.8", "-100.2", "0"), grouped for the language. */
export function formatSigned(value: string, language: string, minDecimals = 0): string {
  const text = formatDecimal(value, language, minDecimals);
  return /^-/.test(value) || !/[1-9]/.test(value)
    ? text.replace(/^-(?=[0.,\s]*$)/, '')
    : `+${text}`;
}

/** A recorded tick's time to the millisecond, for the verification section. */
export function formatTickTime(iso: string, language: string): string {
  return dateTimeFormat(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    hour12: false,
  }).format(new Date(iso));
}

/** A percentage already in percent ("12.5" → "12.5%" in en, "12,5 %" in de), the language's own spacing. */
export function formatPercent(
  value: string,
  language: string,
  minDecimals = 0,
  signed = false,
): string {
  const number = signed
    ? formatSigned(value, language, minDecimals)
    : formatDecimal(value, language, minDecimals);
  const tag = LANGUAGE_TAGS[normalizeLanguage(language)];
  return once(`percent ${tag}`, () => numberFormat(tag, { style: 'percent' }).format(0.5)).replace(
    '50',
    number,
  );
}

/**
 * A decimal string with exactly `decimals` places: padded, or cut toward zero (never rounded
 * up: a figure never shows more than there is). The one rule behind the contexts below.
 */
export function formatFixed(value: string, language: string, decimals: number): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kept = fraction.slice(0, decimals);
  // "-0.001" cut to two places is zero, shown without a sign.
  const negative = sign === '-' && /[1-9]/.test(whole + kept);
  return formatDecimal(
    `${negative ? '-' : ''}${whole}${kept ? `.${kept}` : ''}`,
    language,
    decimals,
  );
}

/** Totals and values in USDT (total assets, "≈ … USDT", a wallet's total): two decimals. */
export const formatUsdt = (value: string, language: string): string =>
  formatFixed(value, language, 2);

/**
 * Places a balance of each wallet asset shows: USDT as a value (2), the coins at their
 * ledger scale, so a balance always has the same number of places, whatever it holds.
 */
export const BALANCE_DECIMALS: Readonly<Record<string, number>> = {
  USDT: 2,
  BTC: 8,
  ETH: 8,
  BNB: 8,
  SOL: 8,
  XRP: 6,
  DOGE: 8,
  TRX: 6,
  LTC: 8,
};

/** A balance of `asset` in a list (wallet rows, coin choice), at the asset's display precision. */
export const formatBalance = (value: string, asset: string, language: string): string =>
  formatFixed(value, language, BALANCE_DECIMALS[asset] ?? 8);
