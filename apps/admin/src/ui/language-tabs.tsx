import { LANGUAGES, LANGUAGE_NAMES, type Language } from '@tradewind/contract/languages';
import { Form, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: {
    required: 'English is required: it is what readers see when their language is missing.',
    fallback: 'Empty: readers in this language see English.',
  },
  'zh-CN': {
    required: '必须填写英文：读者的语言缺失时显示英文。',
    fallback: '留空：该语言的读者将看到英文。',
  },
});

/** A text in the languages it was written in, as the tabs edit it. */
export type Texts = Partial<Record<Language, string>>;

export interface LanguageField {
  /** The form field holding `{ en, zh_CN, … }`. */
  name: string;
  label: string;
  max: number;
  /** Renders the control for one language (an Input, a TextArea, an editor). */
  render: (language: Language) => ReactNode;
}

/**
 * Content in the product's seven languages, one tab each: English is required (the fallback),
 * the others optional. Used by every content page (news, broadcasts, polls).
 */
export function LanguageTabs({ fields, testId }: { fields: LanguageField[]; testId?: string }) {
  const t = useT();
  return (
    <Tabs
      data-testid={testId}
      items={LANGUAGES.map((language) => ({
        key: language,
        label: <span data-testid={`lang-tab-${language}`}>{LANGUAGE_NAMES[language]}</span>,
        forceRender: true,
        children: fields.map((field) => (
          <Form.Item
            key={field.name}
            name={[field.name, language]}
            label={field.label}
            extra={language === 'en' ? undefined : t('fallback')}
            rules={[
              ...(language === 'en'
                ? [{ required: true, whitespace: true, message: t('required') }]
                : []),
              { max: field.max },
            ]}
          >
            {field.render(language)}
          </Form.Item>
        )),
      }))}
    />
  );
}

/** Drops empty translations before sending (the server treats a missing language as English). */
export function compactTexts(
  text: Partial<Record<Language, string | undefined>> | undefined,
): { en: string } & Partial<Record<Language, string>> {
  const out: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const value = text?.[language]?.trim();
    if (value) out[language] = value;
  }
  return out as { en: string } & Partial<Record<Language, string>>;
}
