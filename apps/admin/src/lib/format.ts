import { getLanguage } from './i18n.ts';

/** A timestamp in the console's language, to the second. */
export function formatTime(iso: string | Date): string {
  return new Date(iso).toLocaleString(getLanguage(), {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
}
