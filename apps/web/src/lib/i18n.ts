import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS, storedLanguage } from './storage.ts';

type Catalogue = Record<string, unknown>;

/**
 * Only the active language is loaded. A language is several files merged: the shared
 * messages (`packages/contract/src/i18n/[<domain>/]<lang>.json`), the app's
 * (`src/locales/<lang>.json`) and each feature's (`src/features/<f>/locales/<lang>.json`).
 */
const LOCALE_FILES = {
  ...import.meta.glob<{ default: Catalogue }>('../../../../packages/contract/src/i18n/**/*.json'),
  ...import.meta.glob<{ default: Catalogue }>('../locales/*.json'),
  ...import.meta.glob<{ default: Catalogue }>('../features/*/locales/*.json'),
};

function merge(target: Catalogue, source: Catalogue): Catalogue {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === 'object' && existing && typeof existing === 'object') merge(existing as Catalogue, value as Catalogue);
    else target[key] = value;
  }
  return target;
}

async function loadCatalogue(language: Language): Promise<Catalogue> {
  const loaders = Object.entries(LOCALE_FILES)
    .filter(([file]) => file.endsWith(`/${language}.json`))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, load]) => load);
  if (loaders.length === 0) throw new Error(`missing locale ${language}`);
  const modules = await Promise.all(loaders.map((load) => load()));
  return modules.reduce<Catalogue>((catalogue, module) => merge(catalogue, structuredClone(module.default)), {});
}

export const i18n = i18next.createInstance();

export async function initI18n(): Promise<void> {
  const language = storedLanguage();
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: await loadCatalogue(language) } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = LANGUAGE_TAGS[language];
}

/** Switches at once and persists the choice under `lang`. */
export async function changeLanguage(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, 'translation')) {
    i18n.addResourceBundle(language, 'translation', await loadCatalogue(language));
  }
  localStorage.setItem(STORAGE_KEYS.lang, language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = LANGUAGE_TAGS[language];
}
