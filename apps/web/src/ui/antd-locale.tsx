import type { Language } from '@tradewind/contract/languages';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from '@/lib/i18n.ts';

type AntdLocaleTexts = typeof enUS;

/** English ships with the app; another language's texts load with it (only the one in use). */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: AntdLocaleTexts }>> = {
  zh_TW: () => import('antd-mobile/es/locales/zh-TW'),
  zh_CN: () => import('antd-mobile/es/locales/zh-CN'),
  es: () => import('antd-mobile/es/locales/es-ES'),
  fr: () => import('antd-mobile/es/locales/fr-FR'),
  it: () => import('antd-mobile/es/locales/it-IT'),
  de: () => import('antd-mobile/es/locales/de-DE'),
};
const loaded: Partial<Record<Language, AntdLocaleTexts>> = { en: enUS };
const listeners = new Set<() => void>();

/** Loads antd-mobile's texts for `language`; the app start awaits it beside its own messages. */
export async function loadAntdLocale(language: Language): Promise<void> {
  if (loaded[language] || language === 'en') return;
  loaded[language] = (await LOADERS[language]()).default;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * antd-mobile's own texts (calendar weekdays and months, picker buttons) in the user's
 * language; without it they are Chinese whatever the language.
 */
export function AntdLocale({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = i18n.language as Language;
  const texts = () => loaded[language];
  const locale = useSyncExternalStore(subscribe, texts, texts);
  useEffect(() => {
    void loadAntdLocale(language).catch(() => undefined);
  }, [language]);
  return <ConfigProvider locale={locale ?? enUS}>{children}</ConfigProvider>;
}
