import { Select } from 'antd';
import type { CSSProperties } from 'react';
import { ADMIN_LANGUAGES, ADMIN_LANGUAGE_NAMES, setLanguage, useLanguage } from '@/lib/i18n.ts';

/** The console's language (English or Simplified Chinese), kept in this browser. */
export function LanguageSelect({ style }: { style?: CSSProperties }) {
  const language = useLanguage();
  return (
    <Select
      aria-label="Language"
      size="small"
      value={language}
      onChange={setLanguage}
      options={ADMIN_LANGUAGES.map((value) => ({ value, label: ADMIN_LANGUAGE_NAMES[value] }))}
      style={style}
    />
  );
}
