import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';

/** A timestamp from the API in the user's language and time zone, e.g. "21 Nov 2026, 13:05". */
export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[normalizeLanguage(language)], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
