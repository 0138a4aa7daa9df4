import { LANGUAGES, LANGUAGE_NAMES, type Language } from '@tradewind/contract/languages';
import { List } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { http } from '@/api/http.ts';
import { changeLanguage } from '@/lib/i18n.ts';
import { STORAGE_KEYS, storedLanguage } from '@/lib/storage.ts';
import { Page } from '@/ui/page.tsx';

/** The server writes messages in the user's language, so it learns the choice too (when signed in). */
function choose(language: Language): void {
  void changeLanguage(language);
  if (localStorage.getItem(STORAGE_KEYS.token))
    void http.post('/api/v1/user/language', { language }).catch(() => undefined);
}

/** Switches at once and persists under `lang` (and on the server, for messages). */
export function LanguagePage() {
  const { t, i18n } = useTranslation();
  const current = (i18n.language as Language) ?? storedLanguage();
  return (
    <Page title={t('routes.Language')}>
      <List style={{ borderRadius: 12, overflow: 'hidden' }}>
        {LANGUAGES.map((language) => (
          <List.Item
            key={language}
            onClick={() => choose(language)}
            extra={
              language === current ? (
                <CheckOutline color="var(--tw-primary)" aria-label={t('common.selected')} />
              ) : null
            }
            arrowIcon={false}
          >
            <span lang={language.replace('_', '-')}>{LANGUAGE_NAMES[language]}</span>
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
