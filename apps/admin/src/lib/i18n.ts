import { useSyncExternalStore } from 'react';

/** The console speaks English and Simplified Chinese (issue 7); each feature keeps its own strings. */
export const ADMIN_LANGUAGES = ['en', 'zh-CN'] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];
export const ADMIN_LANGUAGE_NAMES: Record<AdminLanguage, string> = {
  en: 'English',
  'zh-CN': '简体中文',
};

const STORAGE_KEY = 'tw-admin-lang';
const listeners = new Set<() => void>();

function initial(): AdminLanguage {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'zh-CN') return stored;
  return typeof navigator !== 'undefined' && navigator.language.toLowerCase().startsWith('zh')
    ? 'zh-CN'
    : 'en';
}

let current: AdminLanguage = initial();

export function getLanguage(): AdminLanguage {
  return current;
}

export function setLanguage(language: AdminLanguage): void {
  current = language;
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

export function useLanguage(): AdminLanguage {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, getLanguage);
}

export type Vars = Record<string, string | number>;

/** Replaces `{name}` with vars.name. */
export function fill(text: string, vars?: Vars): string {
  return vars
    ? text.replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in vars ? String(vars[name]) : whole,
      )
    : text;
}

/**
 * A feature's strings in both languages; Chinese must have every English key (the type checks it).
 * Returns a hook: `const t = useT(); t('title', { n: 3 })`.
 */
export function defineStrings<K extends string>(strings: {
  en: Record<K, string>;
  'zh-CN': Record<K, string>;
}) {
  return function useT() {
    const language = useLanguage();
    return (key: K, vars?: Vars) => fill(strings[language][key], vars);
  };
}

/** A label given in both languages (menu entries, page titles). */
export type Label = Record<AdminLanguage, string>;
