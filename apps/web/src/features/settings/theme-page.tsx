import { List } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Page } from '@/ui/page.tsx';
import { THEME_CHOICES, type ThemeChoice, chooseTheme, storedTheme } from './theme.ts';

/** System, Light or Dark: switches at once and is kept on this device (theme.ts). */
export function ThemePage() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<ThemeChoice>(storedTheme);
  const choose = (choice: ThemeChoice) => {
    chooseTheme(choice);
    setCurrent(choice);
  };
  return (
    <Page title={t('routes.Theme')} backTo="/My">
      <List style={{ borderRadius: 12, overflow: 'hidden' }}>
        {THEME_CHOICES.map((choice) => (
          <List.Item
            key={choice}
            onClick={() => choose(choice)}
            description={choice === 'system' ? t('theme.system_hint') : undefined}
            extra={
              choice === current ? (
                <CheckOutline color="var(--tw-primary)" aria-label={t('common.selected')} />
              ) : null
            }
            arrowIcon={false}
            aria-current={choice === current ? 'true' : undefined}
          >
            {t(`theme.${choice}`)}
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
