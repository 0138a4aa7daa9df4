import { Grid } from 'antd-mobile';
import {
  AddCircleOutline,
  BankcardOutline,
  BellOutline,
  GiftOutline,
  PayCircleOutline,
  SendOutline,
  StarOutline,
  LoopOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBalances } from '@/api/balances.ts';
import { useConfig } from '@/api/config.ts';
import { formatDecimal } from '@/lib/format.ts';

const QUICK_MENU: { path: string; key: string; icon: ReactNode }[] = [
  { path: '/Recharge', key: 'Recharge', icon: <AddCircleOutline /> },
  { path: '/Withdrawal', key: 'Withdrawal', icon: <SendOutline /> },
  { path: '/Transform', key: 'Transform', icon: <LoopOutline /> },
  { path: '/IEO', key: 'IEO', icon: <StarOutline /> },
  { path: '/Loan', key: 'Loan', icon: <PayCircleOutline /> },
  { path: '/Invite', key: 'Invite', icon: <GiftOutline /> },
  { path: '/Card', key: 'Card', icon: <BankcardOutline /> },
  { path: '/Msg', key: 'Msg', icon: <BellOutline /> },
];

/**
 * Home. Positions and quotes arrive with the markets; until then their place says so
 * instead of showing figures that are not real.
 */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  const balances = useBalances();
  return (
    <div style={{ padding: '16px 16px 24px' }}>
      <header style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 16 }}>
        <img src="/favicon.svg" alt="" width={30} height={30} />
        <h1 style={{ fontSize: 20, margin: 0 }}>Tradewind</h1>
        {config.data?.demoMode && <span className="tw-demo-badge">{t('common.demo')}</span>}
      </header>
      <Link to="/Wallet" className="tw-card" aria-labelledby="home-assets" style={{ display: 'block', color: 'inherit', textDecoration: 'none' }}>
        <h2 id="home-assets" className="tw-muted" style={{ fontSize: 14, fontWeight: 400, margin: 0 }}>
          {t('home.total_assets')}
        </h2>
        <p style={{ margin: '6px 0 0', fontSize: 26, fontWeight: 700 }} data-testid="home-total">
          {balances.data ? `${formatDecimal(balances.data.totalUsdt, i18n.language, 2)} ` : '…'}
          <span style={{ fontSize: 14, fontWeight: 500 }}>USDT</span>
        </p>
      </Link>
      <nav className="tw-card" aria-label={t('home.quick_menu')} style={{ padding: '12px 4px' }}>
        <Grid columns={4} gap={8}>
          {QUICK_MENU.map((item) => (
            <Grid.Item key={item.path}>
              <Link to={item.path} style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 6, color: 'var(--tw-text)', textDecoration: 'none', fontSize: 12, textAlign: 'center' }}>
                <span style={{ fontSize: 26, color: 'var(--tw-primary)' }} aria-hidden>
                  {item.icon}
                </span>
                {t(`routes.${item.key}`)}
              </Link>
            </Grid.Item>
          ))}
        </Grid>
      </nav>
      <section className="tw-card" aria-labelledby="home-markets">
        <h2 id="home-markets" style={{ fontSize: 16, margin: '0 0 6px' }}>
          {t('home.markets')}
        </h2>
        <p className="tw-muted" style={{ margin: 0 }}>{t('home.markets_soon')}</p>
      </section>
    </div>
  );
}
