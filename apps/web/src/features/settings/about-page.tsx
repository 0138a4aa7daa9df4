import { List } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useConfig } from '@/api/config.ts';
import { Page } from '@/ui/page.tsx';

export function AboutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useConfig();
  return (
    <Page title={t('routes.About')} backTo="/My">
      <div className="tw-card" style={{ textAlign: 'center' }}>
        <img src="/favicon.svg" alt="" width={56} height={56} />
        <h2 style={{ margin: '8px 0 4px' }}>Tradewind</h2>
        <p className="tw-muted" style={{ margin: 0 }}>
          {t('about.version', { version: config.data?.version ?? '…' })}
        </p>
        <p style={{ lineHeight: 1.6 }}>{t('about.tagline')}</p>
      </div>
      <List style={{ borderRadius: 12, overflow: 'hidden' }}>
        <List.Item onClick={() => navigate('/Agree?type=privacy')}>{t('legal.privacy')}</List.Item>
        <List.Item onClick={() => navigate('/Agree?type=terms')}>{t('legal.terms')}</List.Item>
      </List>
    </Page>
  );
}
