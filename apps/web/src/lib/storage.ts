import {
  LANGUAGE_COOKIE,
  SIGNED_IN_COOKIE,
  normalizeLanguage,
  type Language,
} from '@tradewind/contract/languages';

/** The local-storage keys of spec §3, exactly. */
export const STORAGE_KEYS = {
  token: 'token',
  uid: 'uid',
  lang: 'lang',
  langname: 'langname',
  alarm: 'alarm',
  openApp: 'openApp',
  imgBaseUrl: 'imgBaseUrl',
} as const;

/** spec §3: "langname: set to the Indonesian code on start". */
export const LANGNAME_ON_START = 'id';

export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

export function saveSession(token: string, uid: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.uid, uid);
  mirrorSession();
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  mirrorSession();
}

/** Whether a session is stored, for the server (apps/server/src/platform/web-app.ts): set or cleared to match. */
export function mirrorSession(): void {
  document.cookie =
    getToken() === null
      ? `${SIGNED_IN_COOKIE}=; path=/; max-age=0; samesite=lax`
      : `${SIGNED_IN_COOKIE}=1; path=/; max-age=31536000; samesite=lax`;
}

/** An unknown stored value falls back to en. */
export function storedLanguage(): Language {
  return normalizeLanguage(localStorage.getItem(STORAGE_KEYS.lang));
}

/** The stored language for the server (apps/server/src/platform/web-app.ts); the app itself reads only local storage. */
function mirrorLanguage(language: Language): void {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** Stores the user's language under `lang` (spec §3), and in its cookie. */
export function storeLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEYS.lang, language);
  mirrorLanguage(language);
}

/** What happens once when the app starts (spec §3). */
export function onAppStart(): void {
  mirrorLanguage(storedLanguage());
  mirrorSession();
  localStorage.setItem(STORAGE_KEYS.langname, LANGNAME_ON_START);
  localStorage.removeItem(STORAGE_KEYS.alarm);
  window.addEventListener('pagehide', () => localStorage.removeItem(STORAGE_KEYS.openApp));
}
