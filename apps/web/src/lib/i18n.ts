import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS, storedLanguage } from './storage.ts';

type Catalogue = Record<string, unknown>;

/**
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

async function loadCatalogue(language: Language): Promise<Catalogue> {
  return (await CATALOGUES[language]()).default;
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
