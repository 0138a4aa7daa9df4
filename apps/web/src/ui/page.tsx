import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

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
 * A titled screen with a back button. The bar is antd-mobile's NavBar markup (its classes and
 * look) written out here: NavBar's back is a clickable div inside an unnamed role="button",
 * which a keyboard cannot reach and a screen reader cannot name.
 */
export function Page({ title, children, backTo = '/', right, noBack = false }: PageProps) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const back = () => (window.history.state?.idx > 0 ? navigate(-1) : navigate(backTo, { replace: true }));
  return (
    <div className="tw-page">
      <header className="adm-nav-bar" style={{ background: 'var(--tw-surface)' }}>
        <div className="adm-nav-bar-left">
          {noBack ? null : (
            <button type="button" className="adm-nav-bar-back tw-back-button" onClick={back} aria-label={t('common.back')}>
              <span className="adm-nav-bar-back-arrow">
                <LeftOutline aria-hidden />
              </span>
            </button>
          )}
        </div>
        <div className="adm-nav-bar-title">
          <h1 style={{ fontSize: 17, margin: 0, fontWeight: 600 }}>{title}</h1>
        </div>
        <div className="adm-nav-bar-right">{right}</div>
      </header>
      <main className="tw-page-body">{children}</main>
    </div>
  );
}
