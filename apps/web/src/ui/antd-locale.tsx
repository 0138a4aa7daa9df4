import type { Language } from '@tradewind/contract/languages';
import { ConfigProvider } from 'antd-mobile';
import deDE from 'antd-mobile/es/locales/de-DE';
import enUS from 'antd-mobile/es/locales/en-US';
import esES from 'antd-mobile/es/locales/es-ES';
import frFR from 'antd-mobile/es/locales/fr-FR';
import itIT from 'antd-mobile/es/locales/it-IT';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const LOCALES: Record<Language, typeof enUS> = { en: enUS, zh_TW: zhTW, zh_CN: zhCN, es: esES, fr: frFR, it: itIT, de: deDE };

/**
 * antd-mobile's own texts (calendar weekdays and months, picker buttons) in the user's
 * language; without it they are Chinese whatever the language.
 */
export function AntdLocale({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <ConfigProvider locale={LOCALES[i18n.language as Language] ?? enUS}>{children}</ConfigProvider>;
}
