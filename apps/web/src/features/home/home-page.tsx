import { type Instrument, type Ticker, tickerChannel } from '@tradewind/contract/market';
import { Badge, Grid, Skeleton } from 'antd-mobile';
import {
  AddCircleOutline,
  BellOutline,
  CollectMoneyOutline,
  GiftOutline,
  HistogramOutline,
  LoopOutline,
  PieOutline,
  SendOutline,
  StarOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { useBalances } from '@/api/balances.ts';
import { useConfig } from '@/api/config.ts';
import { useProductSwitches } from '@/api/product-switches.ts';
import { useUnreadCount } from '@/api/messages.ts';
import { useOrders } from '@/api/contracts/get-orders.ts';
import { useInstruments } from '@/api/market/get-instruments.ts';
import { useTickers } from '@/api/market/get-tickers.ts';
import { useChannels } from '@/api/realtime.ts';
import { formatUsdt } from '@/lib/format.ts';
import { AssetIcon } from '@/ui/asset-icon.tsx';
import { ChangeTag } from '@/ui/change-tag.tsx';
import { OrderRow } from '@/ui/order-row.tsx';
import { showToast } from '@/ui/toast.ts';
import { QuoteList, SourceNote, formatPrice, pairName, tickerMap } from '@/ui/quote-list.tsx';
import { CheckinCard } from './checkin-card.tsx';
import { HomeCard } from './home-card.tsx';
import { NewsSection, NoticeStrip } from './news-section.tsx';
import './home.css';

/** `product`: an entry operators can switch off; off, a tap says the feature is under development. */
const QUICK_MENU: { path: string; key: string; icon: ReactNode; product?: SwitchedProduct }[] = [
  { path: '/Recharge', key: 'Recharge', icon: <AddCircleOutline /> },
  { path: '/Withdrawal', key: 'Withdrawal', icon: <SendOutline /> },
  // Labelled "Transfer" (routes.Transform): it opens the transfer tab, not Convert.
  { path: '/Transform?tab=transfer', key: 'Transform', icon: <LoopOutline /> },
  { path: '/Contract', key: 'Contract', icon: <HistogramOutline /> },
  { path: '/IEO', key: 'IEO', icon: <StarOutline />, product: 'ieo' },
  { path: '/Mining', key: 'Mining', icon: <PieOutline />, product: 'mining' },
  { path: '/Invite', key: 'Invite', icon: <GiftOutline /> },
  { path: '/Loan', key: 'Loan', icon: <CollectMoneyOutline />, product: 'loans' },
];
type SwitchedProduct = 'ieo' | 'mining' | 'loans';

/** Open positions shown on Home; the rest are one tap away in /Contract. */
const HOME_POSITIONS = 3;

/**
 * Home (spec §2): total assets, quick menu, open positions, recommended coins, news,
 * popular coins, forex, international gold, check-in; the latest notice scrolls at the top and
 * the bell shows unread messages. Prices and the badge are live over the socket.
 *
 * Each part reads its own queries, so a reply (nine arrive as the page opens) or a price
 * renders only the part that shows it, not the whole page.
 */
export function HomePage() {
  const { t } = useTranslation();
  const switches = useProductSwitches().data;
  return (
    <div className="tw-home">
      <HomeHeader />
      <NoticeStrip />
      <TotalAssets />
      <nav className="tw-card tw-home-menu" aria-label={t('home.quick_menu')}>
        <Grid columns={4} gap={8}>
          {QUICK_MENU.map((item) => (
            <Grid.Item key={item.path}>
              {item.product && switches?.[item.product] === false ? (
                <button
                  type="button"
                  className="tw-home-menu-item"
                  data-product-off={item.product}
                  // Dressed as the menu's links: their class, without a button's own border and background.
                  style={{
                    border: 0,
                    background: 'none',
                    padding: 0,
                    font: 'inherit',
                    width: '100%',
                    cursor: 'pointer',
                    opacity: 0.6,
                  }}
                  onClick={() =>
                    showToast({ content: t(`home.product_off.${item.product}`), duration: 2000 })
                  }
                >
                  <span aria-hidden>{item.icon}</span>
                  {t(`routes.${item.key}`)}
                </button>
              ) : (
                <Link to={item.path} className="tw-home-menu-item">
                  <span aria-hidden>{item.icon}</span>
                  {t(`routes.${item.key}`)}
                </Link>
              )}
            </Grid.Item>
          ))}
        </Grid>
      </nav>
      <OpenPositions />
      <RecommendedSection />
      <NewsSection />
      <MarketSections />
      <CheckinCard />
    </div>
  );
}

function HomeHeader() {
  const { t } = useTranslation();
  const config = useConfig();
  const unread = useUnreadCount().data?.unread ?? 0;
  return (
    <header className="tw-home-header">
      <img src="/favicon.svg" alt="" width={30} height={30} />
      <h1>Tradewind</h1>
      {config.data?.demoMode && <span className="tw-demo-badge">{t('common.demo')}</span>}
      <Link
        to="/Msg"
        className="tw-home-bell"
        aria-label={unread > 0 ? t('messages.badge_label', { count: unread }) : t('home.messages')}
        data-testid="home-bell"
      >
        <Badge content={unread > 0 ? (unread > 99 ? '99+' : String(unread)) : null}>
          <BellOutline aria-hidden />
        </Badge>
      </Link>
    </header>
  );
}

function TotalAssets() {
  const { t, i18n } = useTranslation();
  const balances = useBalances();
  return (
    <Link to="/Wallet" className="tw-card tw-home-assets" aria-labelledby="home-assets">
      <h2 id="home-assets" className="tw-muted">
        {t('home.total_assets')}
      </h2>
      <p data-testid="home-total">
        {balances.data ? `${formatUsdt(balances.data.totalUsdt, i18n.language)} ` : '… '}
        <span>USDT</span>
      </p>
    </Link>
  );
}

function OpenPositions() {
  const { t } = useTranslation();
  const openOrders = useOrders('open');
  const positions = openOrders.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <HomeCard
      id="home-positions"
      title={t('home.open_positions')}
      action={<Link to="/Contract">{t('home.all')}</Link>}
    >
      {openOrders.isPending ? (
        <Skeleton.Paragraph lineCount={2} animated />
      ) : positions.length === 0 ? (
        <p className="tw-empty-line">{t('home.no_positions')}</p>
      ) : (
        <div className="tw-order-list">
          {positions.slice(0, HOME_POSITIONS).map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </div>
      )}
    </HomeCard>
  );
}

/** The instruments and live tickers a market part of Home shows; holds their ticker channels while shown. */
function useMarket(pick: (instrument: Instrument) => boolean) {
  const instruments = useInstruments();
  const tickers = useTickers();
  const shown = (instruments.data?.items ?? []).filter(pick);
  useChannels(shown.map((instrument) => tickerChannel(instrument.symbol)));
  return { shown, tickers: tickerMap(tickers.data?.items), loading: instruments.isPending };
}

function RecommendedSection() {
  const { t } = useTranslation();
  const { shown, tickers, loading } = useMarket((instrument) => instrument.recommended);
  return (
    <HomeCard
      id="home-recommended"
      title={t('home.recommended')}
      action={<Link to="/Transaction">{t('home.markets')}</Link>}
    >
      {loading ? (
        <Skeleton.Paragraph lineCount={2} animated />
      ) : (
        <RecommendedCards instruments={shown} tickers={tickers} />
      )}
    </HomeCard>
  );
}

const MARKET_SECTIONS = [
  {
    id: 'home-popular',
    title: 'home.popular',
    pick: (instrument: Instrument) => instrument.popular,
  },
  {
    id: 'home-forex',
    title: 'home.forex',
    pick: (instrument: Instrument) => instrument.kind === 'forex',
  },
  {
    id: 'home-gold',
    title: 'home.gold',
    pick: (instrument: Instrument) => instrument.kind === 'metal',
  },
] as const;

/** Popular coins, forex and international gold, each a quote list. */
function MarketSections() {
  const { t } = useTranslation();
  const { shown, tickers, loading } = useMarket((instrument) =>
    MARKET_SECTIONS.some((section) => section.pick(instrument)),
  );
  return MARKET_SECTIONS.map((section) => (
    <QuoteSection
      key={section.id}
      id={section.id}
      title={t(section.title)}
      instruments={shown.filter(section.pick)}
      tickers={tickers}
      loading={loading}
    />
  ));
}

function RecommendedCards({
  instruments,
  tickers,
}: {
  instruments: Instrument[];
  tickers: ReadonlyMap<string, Ticker>;
}) {
  const { i18n } = useTranslation();
  return (
    <>
      <ul className="tw-home-recommended">
        {instruments.map((instrument) => {
          const ticker = tickers.get(instrument.symbol);
          return (
            <li key={instrument.symbol}>
              <Link to={`/Detail?symbol=${instrument.symbol}`} data-symbol={instrument.symbol}>
                <span className="tw-home-rec-name">
                  <AssetIcon asset={instrument.base} size={20} />
                  {pairName(instrument)}
                </span>
                <strong data-testid={`price-${instrument.symbol}`}>
                  {formatPrice(ticker?.price, instrument, i18n.language)}
                </strong>
                <ChangeTag pct={ticker?.changePct ?? null} language={i18n.language} solid={false} />
              </Link>
            </li>
          );
        })}
      </ul>
      <SourceNote tickers={instruments.map((instrument) => tickers.get(instrument.symbol))} />
    </>
  );
}

interface QuoteSectionProps {
  id: string;
  title: string;
  instruments: Instrument[];
  tickers: ReadonlyMap<string, Ticker>;
  loading: boolean;
}

function QuoteSection({ id, title, instruments, tickers, loading }: QuoteSectionProps) {
  return (
    <HomeCard id={id} title={title}>
      {loading ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : (
        <>
          <QuoteList instruments={instruments} tickers={tickers} label={title} live={false} />
          <SourceNote tickers={instruments.map((instrument) => tickers.get(instrument.symbol))} />
        </>
      )}
    </HomeCard>
  );
}
