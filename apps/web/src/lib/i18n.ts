import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import { type ReactElement, type ReactNode, cloneElement, createElement, Fragment, useMemo, useSyncExternalStore } from 'react';
import { STORAGE_KEYS, storedLanguage } from './storage.ts';

export type Catalogue = Record<string, unknown>;

/**
 * The app's translations, in a few lines instead of i18next with react-i18next (17 KB
 * gzipped on every first screen): the messages use only `{{name}}` placeholders, plurals
 * by `count` (`key_one`, `key_other`, … from `Intl.PluralRules`), a `defaultValue`, and one
 * line with links (`Trans`). A missing key shows as the key itself (the every-screen browser
 * test looks for those), a missing placeholder value as nothing.
 *
 * Only the active language is loaded: one file per language, which the build merges from the
 * shared messages (`packages/contract/src/i18n/[<domain>/]<lang>.json`), the app's
 * (`src/locales/<lang>.json`) and each feature's (`src/features/<f>/locales/<lang>.json`);
 * see `localeBundles()` in vite.config.ts.
 */
const CATALOGUES: Record<Language, () => Promise<{ default: Catalogue }>> = {
  en: () => import('virtual:tradewind-locale/en'),
  zh_TW: () => import('virtual:tradewind-locale/zh_TW'),
  zh_CN: () => import('virtual:tradewind-locale/zh_CN'),
  es: () => import('virtual:tradewind-locale/es'),
  fr: () => import('virtual:tradewind-locale/fr'),
  it: () => import('virtual:tradewind-locale/it'),
  de: () => import('virtual:tradewind-locale/de'),
};

/** What `t` takes: placeholder values, `count` for plurals (a number; a string is only shown), `defaultValue` for a key that may be missing. */
export type TOptions = Record<string, unknown> & { count?: number | string; defaultValue?: string };
export type TFunction = (key: string, options?: TOptions) => string;

const catalogues = new Map<Language, Catalogue>();
const pluralRules = new Map<Language, Intl.PluralRules>();
const listeners = new Set<() => void>();
let current: Language = 'en';

function lookup(catalogue: Catalogue | undefined, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function pluralOf(language: Language, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(LANGUAGE_TAGS[language]);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/** A key of `language`'s catalogue, with its placeholders filled. */
export function translateFrom(catalogue: Catalogue | undefined, language: Language, key: string, options: TOptions = {}): string {
  const template =
    (typeof options.count === 'number' ? lookup(catalogue, `${key}_${pluralOf(language, options.count)}`) : undefined) ??
    lookup(catalogue, key) ??
    (typeof options.defaultValue === 'string' ? options.defaultValue : key);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

const translateIn = (language: Language, key: string, options?: TOptions) => translateFrom(catalogues.get(language), language, key, options);
const translate: TFunction = (key, options) => translateIn(current, key, options);

/** The active language and `t`, for code outside components (the HTTP client's network error). */
export const i18n = {
  get language(): Language {
    return current;
  },
  t: translate,
};

const snapshot = () => current;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function load(language: Language): Promise<void> {
  if (!catalogues.has(language)) catalogues.set(language, (await CATALOGUES[language]()).default);
}

function activate(language: Language): void {
  current = language;
  document.documentElement.lang = LANGUAGE_TAGS[language];
  for (const listener of listeners) listener();
}

/** Loads the stored language (or the browser's, or English) before the first render. */
export async function initI18n(): Promise<void> {
  const language = storedLanguage();
  await load(language);
  activate(language);
}

/** Switches at once (every translated component renders again) and persists the choice under `lang`. */
export async function changeLanguage(language: Language): Promise<void> {
  await load(language);
  localStorage.setItem(STORAGE_KEYS.lang, language);
  activate(language);
}

/** `t` and the active language; the component renders again when the language changes. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const language = useSyncExternalStore(subscribe, snapshot, snapshot);
  // A new `t` for each language, so memoised children that take it render again too.
  return useMemo(() => ({ t: (key: string, options?: TOptions) => translateIn(language, key, options), i18n }), [language]);
}

/**
 * A message whose `<name>…</name>` parts become the given elements with that text inside
 * (the legal line's links). Tags do not nest; an unknown tag shows its text alone.
 */
export function Trans({ i18nKey, components, values }: { i18nKey: string; components: Record<string, ReactElement>; values?: TOptions }): ReactNode {
  const { t } = useTranslation();
  const parts = tagged(t(i18nKey, values)).map((part, i) => {
    if (typeof part === 'string') return part;
    const element = components[part.tag];
    return element ? cloneElement(element, { key: i }, part.text) : part.text;
  });
  return createElement(Fragment, null, ...parts);
}

/** A message split into plain text and `<tag>text</tag>` parts. */
export function tagged(text: string): (string | { tag: string; text: string })[] {
  const parts: (string | { tag: string; text: string })[] = [];
  const tag = /<(\w+)>([\s\S]*?)<\/\1>/g;
  let at = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push({ tag: match[1] ?? '', text: match[2] ?? '' });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
