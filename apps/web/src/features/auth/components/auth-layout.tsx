import { GlobalOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { useConfig } from '@/api/config.ts';
import { useHydrated } from '@/lib/hydration.ts';

/** The frame of the signed-out screens: brand, language, title, and the legal line. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  // The reply may be cached before the prerendered page is hydrated: the badge waits for that.
  const demo = useHydrated() && config.data?.demoMode;
  return (
    <main className="tw-auth">
      <header className="tw-auth-header">
        <div className="tw-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Tradewind</span>
          {demo && <span className="tw-demo-badge">{t('common.demo')}</span>}
        </div>
        <Link
          to="/Language"
          className="tw-link"
          aria-label={t('routes.Language')}
          style={{ fontSize: 24, display: 'flex' }}
        >
          <GlobalOutline />
        </Link>
      </header>
      <h1>{title}</h1>
      {subtitle && (
        <p className="tw-muted" style={{ marginTop: 0 }}>
          {subtitle}
        </p>
      )}
      {children}
      <p className="tw-muted" style={{ marginTop: 28, textAlign: 'center', lineHeight: 1.6 }}>
        <Trans
          i18nKey="auth.legal_line"
          components={{
            privacy: <Link className="tw-link" to="/Agree?type=privacy" />,
            terms: <Link className="tw-link" to="/Agree?type=terms" />,
          }}
        />
      </p>
    </main>
  );
}
