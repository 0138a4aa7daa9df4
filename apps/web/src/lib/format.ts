import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';

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
  const grouped = new Intl.NumberFormat(tag, { useGrouping: true }).format(BigInt(whole));
  const separator = new Intl.NumberFormat(tag).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const padded = fraction.padEnd(minDecimals, '0');
  return `${sign}${grouped}${padded ? `${separator}${padded}` : ''}`;
}

/** A timestamp from the API in the user's language (display only). */
export function formatDateTime(iso: string, language: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[normalizeLanguage(language)], options).format(new Date(iso));
}
