import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS, storedLanguage } from './storage.ts';

type Catalogue = Record<string, unknown>;

// Only the active language is loaded: each file is its own chunk.
const appLocales = import.meta.glob<{ default: Catalogue }>('../locales/*.json');
const sharedLocales = import.meta.glob<{ default: Catalogue }>('../../../../packages/contract/src/i18n/*.json');

async function loadCatalogue(language: Language): Promise<Catalogue> {
  const app = appLocales[`../locales/${language}.json`];
  const shared = sharedLocales[`../../../../packages/contract/src/i18n/${language}.json`];
  if (!app || !shared) throw new Error(`missing locale ${language}`);
  const [appModule, sharedModule] = await Promise.all([app(), shared()]);
  return { ...sharedModule.default, ...appModule.default };
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
