import { NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
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

/** A titled screen with a back button. */
export function Page({ title, children, backTo = '/', right, noBack = false }: PageProps) {
  const navigate = useNavigate();
  const back = () => (window.history.state?.idx > 0 ? navigate(-1) : navigate(backTo, { replace: true }));
  return (
    <div className="tw-page">
      <NavBar onBack={noBack ? undefined : back} back={noBack ? null : ''} right={right} style={{ background: 'var(--tw-surface)' }} backIcon={!noBack}>
        <h1 style={{ fontSize: 17, margin: 0, fontWeight: 600 }}>{title}</h1>
      </NavBar>
      <main className="tw-page-body">{children}</main>
    </div>
  );
}
