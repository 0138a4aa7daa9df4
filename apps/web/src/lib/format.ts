import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';

/** A timestamp from the API in the user's language (display only). */
export function formatDateTime(iso: string, language: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[normalizeLanguage(language)], options).format(new Date(iso));
}
