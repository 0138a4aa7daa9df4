import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';

interface PageProps {
  title: string;
  children: ReactNode;
  /** Where back goes when there is no history to return to. */
  backTo?: string;
  right?: ReactNode;
  /** Tab screens have no back button. */
  noBack?: boolean;
}

/**
 * A titled screen with a back button. The bar is written out here rather than antd-mobile's
 * NavBar, whose back is a clickable div inside an unnamed role="button" that a keyboard cannot
 * reach and a screen reader cannot name.
 */
export function Page({ title, children, backTo = '/', right, noBack = false }: PageProps) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const back = () =>
    window.history.state?.idx > 0 ? navigate(-1) : navigate(backTo, { replace: true });
  return (
    <div className="tw-page">
      <header className="tw-nav-bar" style={{ background: 'var(--tw-surface)' }}>
        <div className="tw-nav-bar-side">
          {noBack ? null : (
            <button
              type="button"
              className="tw-back-button"
              onClick={back}
              aria-label={t('common.back')}
            >
              <LeftOutline aria-hidden />
            </button>
          )}
        </div>
        <div className="tw-nav-bar-title">
          <h1>{title}</h1>
        </div>
        <div className="tw-nav-bar-side tw-nav-bar-right">{right}</div>
      </header>
      <main className="tw-page-body">{children}</main>
    </div>
  );
}
