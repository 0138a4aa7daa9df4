import type { OrderState } from '@tradewind/contract/instant';
import {
  type Instrument,
  type InstrumentKind,
  type Ticker,
  tickerChannel,
} from '@tradewind/contract/market';
import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';
import { ErrorBlock, SearchBar, Skeleton, Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { useOrders } from '@/api/contracts/get-orders.ts';
import { useFavorites } from '@/api/market/favorites.ts';
import { useInstruments } from '@/api/market/get-instruments.ts';
import { useSparklines } from '@/api/market/get-sparklines.ts';
import { useTickers } from '@/api/market/get-tickers.ts';
import { useChannels } from '@/api/realtime.ts';
import { OrderRow } from '@/ui/order-row.tsx';
import { QuoteList, SourceNote, pairName, tickerMap } from '@/ui/quote-list.tsx';
import { Page } from '@/ui/page.tsx';
import { Sparkline } from '@/ui/sparkline.tsx';
import './trade.css';

const TABS = ['futures', 'commodities', 'favorites'] as const;
type Tab = (typeof TABS)[number];
/** The commodities tab groups the non-crypto kinds, each under its own heading. */
const COMMODITY_KINDS: InstrumentKind[] = ['commodity', 'forex', 'metal'];
/** Positions shown here; the full history is in /Contract. */
const POSITIONS_SHOWN = 10;

const asTab = (value: string | null): Tab =>
  (TABS as readonly string[]).includes(value ?? '') ? (value as Tab) : 'futures';

const SORTS = ['change', 'volume', 'name'] as const;
type Sort = (typeof SORTS)[number];
const asSort = (value: string | null): Sort | null =>
  (SORTS as readonly string[]).includes(value ?? '') ? (value as Sort) : null;

/** Whether an instrument answers the search: its pair, symbol or name, case and accents aside. */
function matches(instrument: Instrument, query: string): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const wanted = fold(query.trim());
  if (!wanted) return true;
  return [pairName(instrument), instrument.symbol, instrument.name].some((text) =>
    fold(text).includes(wanted.replace(/\s+/g, ' ')),
  );
}

/**
 * What each sort orders by: the 24 h change, the 24 h volume in the quote currency (base
 * volume × price: a coin's volume in its own units says nothing beside another's), the pair's
 * name. Instruments without the figure go last whichever way.
 */
function sortKey(sort: Sort, instrument: Instrument, ticker: Ticker | undefined): number | string {
  if (sort === 'name') return pairName(instrument);
  if (!ticker?.price) return Number.NaN;
  if (sort === 'change') return ticker.changePct === null ? Number.NaN : Number(ticker.changePct);
  return ticker.volume24h === null ? Number.NaN : Number(ticker.volume24h) * Number(ticker.price);
}

function sorted(
  list: readonly Instrument[],
  sort: Sort | null,
  descending: boolean,
  tickers: ReadonlyMap<string, Ticker>,
  language: string,
): Instrument[] {
  if (!sort) return [...list];
  const keyed = list.map((instrument) => ({
    instrument,
    key: sortKey(sort, instrument, tickers.get(instrument.symbol)),
  }));
  const sign = descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (typeof a.key === 'string' && typeof b.key === 'string')
      return sign * a.key.localeCompare(b.key, LANGUAGE_TAGS[normalizeLanguage(language)]);
    const [x, y] = [a.key as number, b.key as number];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return sign * (x - y);
  });
  return keyed.map((entry) => entry.instrument);
}

/** /Transaction (Trade tab): instant futures, commodities and favourites; the user's open and closed positions. */
export function TransactionPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = asTab(params.get('tab'));
  const query = params.get('q') ?? '';
  const sort = asSort(params.get('sort'));
  // Names read A→Z first; figures, largest first.
  const descending = params.get('order') ? params.get('order') === 'desc' : sort !== 'name';
  const sparklines = useSparklines();
  const trends = new Map(
    (sparklines.data?.items ?? []).map((item) => [item.symbol, item.closes] as const),
  );
  const trendLine = (symbol: string) => <Sparkline closes={trends.get(symbol) ?? []} />;
  const positions: OrderState = params.get('positions') === 'settled' ? 'settled' : 'open';
  const instruments = useInstruments();
  const tickers = useTickers();
  const favorites = useFavorites();
  const all = instruments.data?.items ?? [];
  const favoriteSet = new Set(favorites.data?.symbols ?? []);
  const inTab: Instrument[] =
    tab === 'futures'
      ? all.filter((i) => i.kind === 'crypto')
      : tab === 'commodities'
        ? all.filter((i) => i.kind !== 'crypto')
        : all.filter((i) => favoriteSet.has(i.symbol));
  useChannels(inTab.map((instrument) => tickerChannel(instrument.symbol)));
  const bySymbol = tickerMap(tickers.data?.items);
  const shown = sorted(
    inTab.filter((instrument) => matches(instrument, query)),
    sort,
    descending,
    bySymbol,
    i18n.language,
  );

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes))
      if (value) next.set(key, value);
      else next.delete(key);
    setParams(next, { replace: true });
  };
  // Tapping the sort in use turns its order round.
  const chooseSort = (value: Sort) =>
    update(
      sort === value
        ? { order: descending ? 'asc' : 'desc' }
        : { sort: value, order: value === 'name' ? 'asc' : 'desc' },
    );

  return (
    <Page title={t('routes.Transaction')} noBack>
      <Tabs activeKey={tab} onChange={(key) => update({ tab: key })} className="tw-trade-tabs">
        {TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`trade.tab_${key}`)} />
        ))}
      </Tabs>
      <section className="tw-card tw-trade-list" aria-label={t(`trade.tab_${tab}`)}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, marginBottom: 8 }}>
          <SearchBar
            placeholder={t('trade.search')}
            value={query}
            onChange={(value) => update({ q: value })}
            aria-label={t('trade.search')}
          />
          <div role="group" aria-label={t('trade.sort')} className="tw-segmented">
            {SORTS.map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={sort === value}
                data-sort={value}
                onClick={() => chooseSort(value)}
              >
                {t(`trade.sort_${value}`)}
                {sort === value ? (descending ? ' ↓' : ' ↑') : ''}
              </button>
            ))}
          </div>
        </div>
        {instruments.isError ? (
          <ErrorBlock status="default" title={t('trade.load_failed')} description="" />
        ) : instruments.isPending ? (
          <Skeleton.Paragraph lineCount={6} animated />
        ) : query.trim() && shown.length === 0 ? (
          <p className="tw-empty-line" data-testid="no-match">
            {t('trade.no_match', { query: query.trim() })}
          </p>
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
                  trend={trendLine}
                />
              </div>
            );
          })
        ) : tab === 'favorites' && inTab.length === 0 ? (
          <p className="tw-empty-line">{favorites.isPending ? '…' : t('trade.no_favorites')}</p>
        ) : (
          <QuoteList
            instruments={shown}
            tickers={bySymbol}
            label={t(`trade.tab_${tab}`)}
            live={false}
            trend={trendLine}
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
