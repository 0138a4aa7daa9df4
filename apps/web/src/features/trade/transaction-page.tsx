import type { OrderState } from '@tradewind/contract/instant';
import { type Instrument, type InstrumentKind, tickerChannel } from '@tradewind/contract/market';
import { ErrorBlock, Skeleton, Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { useOrders } from '@/api/contracts/get-orders.ts';
import { useFavorites } from '@/api/market/favorites.ts';
import { useInstruments } from '@/api/market/get-instruments.ts';
import { useTickers } from '@/api/market/get-tickers.ts';
import { useChannels } from '@/api/realtime.ts';
import { OrderRow } from '@/ui/order-row.tsx';
import { QuoteList, SourceNote, tickerMap } from '@/ui/quote-list.tsx';
import { Page } from '@/ui/page.tsx';
import './trade.css';

const TABS = ['futures', 'commodities', 'favorites'] as const;
type Tab = (typeof TABS)[number];
/** The commodities tab groups the non-crypto kinds, each under its own heading. */
const COMMODITY_KINDS: InstrumentKind[] = ['commodity', 'forex', 'metal'];
/** Positions shown here; the full history is in /Contract. */
const POSITIONS_SHOWN = 10;

const asTab = (value: string | null): Tab =>
  (TABS as readonly string[]).includes(value ?? '') ? (value as Tab) : 'futures';

/** /Transaction (Trade tab): instant futures, commodities and favourites; the user's open and closed positions. */
export function TransactionPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = asTab(params.get('tab'));
  const positions: OrderState = params.get('positions') === 'settled' ? 'settled' : 'open';
  const instruments = useInstruments();
  const tickers = useTickers();
  const favorites = useFavorites();
  const all = instruments.data?.items ?? [];
  const favoriteSet = new Set(favorites.data?.symbols ?? []);
  const shown: Instrument[] =
    tab === 'futures'
      ? all.filter((i) => i.kind === 'crypto')
      : tab === 'commodities'
        ? all.filter((i) => i.kind !== 'crypto')
        : all.filter((i) => favoriteSet.has(i.symbol));
  useChannels(shown.map((instrument) => tickerChannel(instrument.symbol)));
  const bySymbol = tickerMap(tickers.data?.items);

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    setParams(next, { replace: true });
  };

  return (
    <Page title={t('routes.Transaction')} noBack>
      <Tabs activeKey={tab} onChange={(key) => update({ tab: key })} className="tw-trade-tabs">
        {TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`trade.tab_${key}`)} />
        ))}
      </Tabs>
      <section className="tw-card tw-trade-list" aria-label={t(`trade.tab_${tab}`)}>
        {instruments.isError ? (
          <ErrorBlock status="default" title={t('trade.load_failed')} description="" />
        ) : instruments.isPending ? (
          <Skeleton.Paragraph lineCount={6} animated />
        ) : tab === 'commodities' ? (
          COMMODITY_KINDS.map((kind) => {
            const group = shown.filter((i) => i.kind === kind);
            return group.length === 0 ? null : (
              <div key={kind} className="tw-trade-group">
                <h2>{t(`trade.kind_${kind}`)}</h2>
                <QuoteList
                  instruments={group}
                  tickers={bySymbol}
                  label={t(`trade.kind_${kind}`)}
                  live={false}
                />
              </div>
            );
          })
        ) : tab === 'favorites' && shown.length === 0 ? (
          <p className="tw-empty-line">{favorites.isPending ? '…' : t('trade.no_favorites')}</p>
        ) : (
          <QuoteList
            instruments={shown}
            tickers={bySymbol}
            label={t(`trade.tab_${tab}`)}
            live={false}
          />
        )}
        <SourceNote tickers={shown.map((instrument) => bySymbol.get(instrument.symbol))} />
      </section>

      <section className="tw-card" aria-labelledby="trade-positions">
        <div className="tw-section-head">
          <h2 id="trade-positions">{t('trade.positions')}</h2>
          <Link to={`/Contract${positions === 'settled' ? '?tab=settled' : ''}`}>
            {t('trade.all_contracts')}
          </Link>
        </div>
        {/* Two pressed/unpressed buttons: antd-mobile's Segmented nests its options in a way no
            screen reader can use (a listbox whose options sit inside labels). */}
        <div role="group" aria-label={t('trade.positions')} className="tw-segmented">
          {(['open', 'settled'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={positions === value}
              onClick={() => update({ positions: value })}
            >
              {t(`trade.positions_${value}`)}
            </button>
          ))}
        </div>
        <Positions state={positions} />
      </section>
    </Page>
  );
}

function Positions({ state }: { state: OrderState }) {
  const { t } = useTranslation();
  const orders = useOrders(state);
  const items = orders.data?.pages.flatMap((page) => page.items) ?? [];
  if (orders.isPending) return <Skeleton.Paragraph lineCount={3} animated />;
  if (orders.isError)
    return <ErrorBlock status="default" title={t('trade.load_failed')} description="" />;
  if (items.length === 0)
    return (
      <p className="tw-empty-line">{t(state === 'open' ? 'trade.no_open' : 'trade.no_settled')}</p>
    );
  return (
    <div className="tw-order-list" data-testid={`positions-${state}`}>
      {items.slice(0, POSITIONS_SHOWN).map((order) => (
        <OrderRow key={order.id} order={order} />
      ))}
      {items.length > POSITIONS_SHOWN && (
        <Link to={`/Contract${state === 'settled' ? '?tab=settled' : ''}`} className="tw-more-link">
          {t('trade.all_contracts')}
        </Link>
      )}
    </div>
  );
}
