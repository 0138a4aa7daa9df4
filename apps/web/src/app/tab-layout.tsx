import { AppOutline, HistogramOutline, UserOutline, PieOutline } from 'antd-mobile-icons';
import { Suspense } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, Outlet, useLocation } from '@/lib/router.tsx';
import { PageFallback } from './shell.tsx';

const TABS = [
  { key: '/', titleKey: 'tabs.home', icon: <AppOutline /> },
  { key: '/Transaction', titleKey: 'tabs.trade', icon: <HistogramOutline /> },
  { key: '/Mining', titleKey: 'tabs.mining', icon: <PieOutline /> },
  { key: '/My', titleKey: 'tabs.my', icon: <UserOutline /> },
] as const;

/** Layout route "/": Home, Trade, Mining and My behind the bottom tabs (spec §2). */
export function TabLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="tw-tab-layout">
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <nav className="tw-tabbar" aria-label={t('tabs.label')}>
        {/* Links, not antd-mobile's TabBar: its items are clickable divs a keyboard cannot reach. */}
        {TABS.map((tab) => {
          const active = location.pathname === tab.key;
          return (
            <Link
              key={tab.key}
              to={tab.key}
              className="tw-tabbar-item"
              aria-current={active ? 'page' : undefined}
            >
              <span className="tw-tabbar-icon" aria-hidden>
                {tab.icon}
              </span>
              {t(tab.titleKey)}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
