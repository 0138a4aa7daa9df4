import { TabBar } from 'antd-mobile';
import { AppOutline, HistogramOutline, UserOutline, PieOutline } from 'antd-mobile-icons';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
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
  const navigate = useNavigate();
  return (
    <div className="tw-tab-layout">
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <nav className="tw-tabbar" aria-label={t('tabs.label')}>
        <TabBar activeKey={location.pathname} onChange={(key) => navigate(key)} safeArea>
          {TABS.map((tab) => (
            <TabBar.Item key={tab.key} icon={tab.icon} title={t(tab.titleKey)} />
          ))}
        </TabBar>
      </nav>
    </div>
  );
}
