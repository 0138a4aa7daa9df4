import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import {
  type ReactElement,
  type ReactNode,
  cloneElement,
  createElement,
  Fragment,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { storeLanguage, storedLanguage } from './storage.ts';

/** One language's messages, or a part of them: namespaces of nested keys, texts at the leaves. */
export type Catalogue = Record<string, unknown>;

type Loader = () => Promise<{ default: Catalogue }>;

/**
 * The app's translations, in a few lines instead of i18next with react-i18next (17 KB
 * gzipped on every first screen): the messages use only `{{name}}` placeholders, plurals
 * by `count` (`key_one`, `key_other`, … from `Intl.PluralRules`), a `defaultValue`, and one
 * line with links (`Trans`). A missing key shows as the key itself (the every-screen browser
 * test looks for those), a missing placeholder value as nothing.
 *
 * Only the active language is loaded, in two parts that the build merges from the shared
 * messages (`packages/contract/src/i18n/[<domain>/]<lang>.json`), the app's
 * (`src/locales/<lang>.json`) and each feature's (`src/features/<f>/locales/<lang>.json`):
 * what the first screens need, before the first render, and the rest, which the other pages
 * wait for (`loadAllMessages`); see `localeBundles()` in vite.config.ts and first-screens.ts.
 */
const CATALOGUES: Record<Language, { first: Loader; rest: Loader }> = {
  en: {
    first: () => import('virtual:tradewind-locale/en'),
    rest: () => import('virtual:tradewind-locale/en/rest'),
  },
  zh_TW: {
    first: () => import('virtual:tradewind-locale/zh_TW'),
    rest: () => import('virtual:tradewind-locale/zh_TW/rest'),
  },
  zh_CN: {
    first: () => import('virtual:tradewind-locale/zh_CN'),
    rest: () => import('virtual:tradewind-locale/zh_CN/rest'),
  },
  es: {
    first: () => import('virtual:tradewind-locale/es'),
    rest: () => import('virtual:tradewind-locale/es/rest'),
  },
  fr: {
    first: () => import('virtual:tradewind-locale/fr'),
    rest: () => import('virtual:tradewind-locale/fr/rest'),
  },
  it: {
    first: () => import('virtual:tradewind-locale/it'),
    rest: () => import('virtual:tradewind-locale/it/rest'),
  },
  de: {
    first: () => import('virtual:tradewind-locale/de'),
    rest: () => import('virtual:tradewind-locale/de/rest'),
  },
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
export function translateFrom(
  catalogue: Catalogue | undefined,
  language: Language,
  key: string,
  options: TOptions = {},
): string {
  // A form the messages lack falls back to `_other`, as in ICU: CLDR gives French, Spanish and
  // Italian a "many" form (a million, …) that no message spells out.
  const template =
    (typeof options.count === 'number'
      ? (lookup(catalogue, `${key}_${pluralOf(language, options.count)}`) ??
        lookup(catalogue, `${key}_other`))
      : undefined) ??
    lookup(catalogue, key) ??
    (typeof options.defaultValue === 'string' ? options.defaultValue : key);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** The rest of a language's messages: loaded, or on their way. */
const restOf = new Map<Language, Promise<void>>();
/** Replaced at every language switch and every part that arrives, so translated components render again. */
let view: { language: Language } = { language: current };

function changed(): void {
  view = { language: current };
  for (const listener of listeners) listener();
}

/** The first screens' messages of a language: loaded, or on their way (one catalogue object per language, which the rest is merged into). */
const firstOf = new Map<Language, Promise<Catalogue>>();

function loadFirst(language: Language): Promise<Catalogue> {
  let loading = firstOf.get(language);
  if (!loading) {
    loading = CATALOGUES[language].first().then((module) => {
      const catalogue = { ...module.default };
      catalogues.set(language, catalogue);
      return catalogue;
    });
    loading.catch(() => firstOf.delete(language));
    firstOf.set(language, loading);
  }
  return loading;
}

function loadRest(language: Language): Promise<void> {
  let loading = restOf.get(language);
  if (!loading) {
    loading = Promise.all([loadFirst(language), CATALOGUES[language].rest()]).then(
      ([catalogue, rest]) => {
        Object.assign(catalogue, rest.default);
        if (language === current) changed();
      },
    );
    // A failed download is tried again by the next page that needs it.
    loading.catch(() => restOf.delete(language));
    restOf.set(language, loading);
  }
  return loading;
}

function translateIn(language: Language, key: string, options?: TOptions): string {
  const catalogue = catalogues.get(language);
  // A namespace beyond the first screens' (they split by namespace), asked for before a page
  // loaded the rest: fetch the rest now; the component renders again when it arrives.
  if (catalogue && !restOf.has(language) && !((key.split('.', 1)[0] as string) in catalogue))
    void loadRest(language).catch(() => undefined);
  return translateFrom(catalogue, language, key, options);
}

const translate: TFunction = (key, options) => translateIn(current, key, options);

/** The active language and `t`, for code outside components (the HTTP client's network error). */
export const i18n = {
  get language(): Language {
    return current;
  },
  t: translate,
};

const snapshot = () => view;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function activate(language: Language): void {
  current = language;
  // Not in the build's prerender, which renders without a document.
  if (typeof document !== 'undefined') document.documentElement.lang = LANGUAGE_TAGS[language];
  changed();
}

/** Loads the first screens' messages in the stored language (or English) before the first render. */
export async function initI18n(language: Language = storedLanguage()): Promise<void> {
  await loadFirst(language);
  activate(language);
}

/**
 * All of the active language's messages: every page but the first screens waits for this.
 * Asked for before the first render (main.tsx preloads the page), it means the stored language.
 */
export function loadAllMessages(): Promise<void> {
  return loadRest(catalogues.has(current) ? current : storedLanguage());
}

/** Switches at once (every translated component renders again) and persists the choice under `lang`. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadRest(language);
  storeLanguage(language);
  activate(language);
}

/** `t` and the active language; the component renders again when the language changes or more messages arrive. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const seen = useSyncExternalStore(subscribe, snapshot, snapshot);
  // A new `t` for each change, so memoised children that take it render again too.
  return useMemo(
    () => ({
      t: (key: string, options?: TOptions) => translateIn(seen.language, key, options),
      i18n,
    }),
    [seen],
  );
}

/**
 * A message whose `<name>…</name>` parts become the given elements with that text inside
 * (the legal line's links). Tags do not nest; an unknown tag shows its text alone.
 */
export function Trans({
  i18nKey,
  components,
  values,
}: {
  i18nKey: string;
  components: Record<string, ReactElement>;
  values?: TOptions;
}): ReactNode {
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
