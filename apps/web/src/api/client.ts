import { normalizeLanguage } from '@tradewind/contract/languages';
import { type HttpClient, createEnvelopeClient } from '@tradewind/http-client/envelope-client';

/**
 * The user app's client of spec §7–8 on the shared envelope client: the token and the language
 * live in storage under `token` and `lang`; a session end drops the token and goes to /Login
 * silently; every failure nobody else shows is toasted. It is built from its dependencies
 * (storage, navigation, toast) so the same code runs in the app and against a real server in tests.
 */

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientDeps {
  baseUrl: string;
  storage: KeyValueStorage;
  /** Called after a 401/411 cleared the token: go to /Login, silently. */
  onSessionEnd: () => void;
  toast: (message: string) => void;
  /** The localized "network error" text, read when needed so it follows the language. */
  networkErrorMessage: () => string;
  /** The localized "too many requests, try again in …" text for a wait of `waitS` seconds, if known (`rateLimitedText`). */
  rateLimitedMessage: (waitS: number | undefined) => string;
  timeoutMs?: number;
  /** An early GET nobody asked for (a page's list out of date): the app warns in the console. */
  onUnusedEarly?: (url: string) => void;
  fetch?: typeof fetch;
}

/** "Too many requests. Try again in 12 s." (under a minute), "… in 2 min." (rounded up) or, with no wait known, "… in a moment.", in the language of `t`. */
export function rateLimitedText(
  t: (key: string, values?: Record<string, number>) => string,
  waitS: number | undefined,
): string {
  if (waitS === undefined) return t('common.rate_limited');
  return waitS < 60
    ? t('common.rate_limited_s', { seconds: Math.max(1, waitS) })
    : t('common.rate_limited_min', { minutes: Math.ceil(waitS / 60) });
}

export function createClient({ storage, onSessionEnd, ...deps }: ClientDeps): HttpClient {
  return createEnvelopeClient({
    ...deps,
    token: () => storage.getItem('token'),
    // The header says what the app shows: an unknown stored value is shown as en (spec §1, §7).
    language: () => normalizeLanguage(storage.getItem('lang')),
    onSessionEnd: () => {
      storage.removeItem('token');
      onSessionEnd();
    },
  });
}
