import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Page } from '@/ui/page.tsx';

/** A screen whose content arrives with a later release: its title, a back button and an honest note. */
export function PlaceholderPage({ titleKey, tab = false }: { titleKey: string; tab?: boolean }) {
  const { t } = useTranslation();
  return (
    <Page title={t(titleKey)} noBack={tab}>
      <ErrorBlock status="empty" title={t('placeholder.title')} description={t('placeholder.description')} />
    </Page>
  );
}
