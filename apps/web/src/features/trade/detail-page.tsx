import type { Direction } from '@tradewind/contract/instant';
import {
  type Instrument,
  type InstrumentSymbol,
  KLINE_INTERVALS,
  type KlineInterval,
  isInstrumentSymbol,
  klineChannel,
  tickerChannel,
} from '@tradewind/contract/market';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';
import { useContractConfig } from '@/api/contracts/get-config.ts';
import { useFavorites, useToggleFavorite } from '@/api/market/favorites.ts';
import { useInstruments } from '@/api/market/get-instruments.ts';
import { useKlines } from '@/api/market/get-klines.ts';
import { useTicker } from '@/api/market/get-ticker.ts';
import { useChannel } from '@/api/realtime.ts';
import { signOf } from '@/lib/contract-math.ts';
import { formatDateTime, formatDecimal, formatPercent, truncateDecimal } from '@/lib/format.ts';
import { ChangeTag } from '@/ui/change-tag.tsx';
import { Page } from '@/ui/page.tsx';
import { SourceNote, formatPrice, pairName } from '@/ui/quote-list.tsx';
import { DeliveryPopup } from './components/delivery-popup.tsx';
import { OrderPopup } from './components/order-popup.tsx';
import './trade.css';

// lightweight-charts comes with the chart, in its own chunk, only when a chart is shown.
const CandleChart = lazy(() => import('./components/candle-chart.tsx'));

const asInterval = (value: string | null): KlineInterval =>
  (KLINE_INTERVALS as readonly string[]).includes(value ?? '') ? (value as KlineInterval) : '1m';

/** /Detail?symbol=X: live price, 24 h statistics, candles, favourite, and the buy-up / buy-down orders. */
export function DetailPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const rawSymbol = params.get('symbol') ?? '';
  const symbol = isInstrumentSymbol(rawSymbol) ? rawSymbol : null;
  const instruments = useInstruments();
  const instrument = instruments.data?.items.find((i) => i.symbol === symbol);

  if (!symbol || (instruments.isSuccess && !instrument)) {
    return (
      <Page title={t('routes.Detail')} backTo="/Transaction">
        <ErrorBlock status="empty" title={t('trade.unknown_market')} description="" />
        <Button block color="primary" onClick={() => navigate('/Transaction', { replace: true })}>
          {t('trade.all_markets')}
        </Button>
      </Page>
    );
  }
  const interval = asInterval(params.get('interval'));
  return (
    <Detail
      symbol={symbol}
      interval={interval}
      onInterval={(next) =>
        setParams({ symbol, ...(next === '1m' ? {} : { interval: next }) }, { replace: true })
      }
      language={i18n.language}
      instrument={instrument}
    />
  );
}

interface DetailProps {
  symbol: InstrumentSymbol;
  interval: KlineInterval;
  onInterval: (interval: KlineInterval) => void;
  language: string;
  instrument: Instrument | undefined;
}

function Detail({ symbol, interval, onInterval, language, instrument }: DetailProps) {
  const { t } = useTranslation();
  const ticker = useTicker(symbol).data;
  const klines = useKlines(symbol, interval);
  const config = useContractConfig();
  const favorites = useFavorites();
  const toggleFavorite = useToggleFavorite();
  const [direction, setDirection] = useState<Direction | null>(null);
  const [deliveryId, setDeliveryId] = useState<string | null>(null);
  useChannel(tickerChannel(symbol));
  useChannel(klineChannel(symbol, interval));

  const favorite = favorites.data?.symbols.includes(symbol) ?? false;
  const price = ticker?.price ?? null;
  const fmt = (value: string | null | undefined, decimals = 0) =>
    value ? formatDecimal(value, language, decimals) : '—';
  const tradable =
    instrument?.tradable === true && config.isSuccess && config.data.periods.length > 0;

  const star = (
    <button
      type="button"
      className="tw-star"
      aria-pressed={favorite}
      aria-label={favorite ? t('trade.unfavorite') : t('trade.favorite')}
      disabled={!favorites.isSuccess || toggleFavorite.isPending}
      onClick={() => toggleFavorite.mutate({ symbol, favorite: !favorite })}
    >
      {favorite ? <StarFill color="#f5a623" /> : <StarOutline />}
    </button>
  );

  return (
    <Page title={instrument ? pairName(instrument) : symbol} backTo="/Transaction" right={star}>
      <div className="tw-detail">
        <section className="tw-card tw-detail-head" aria-label={t('trade.price_section')}>
          <p className="tw-muted tw-detail-name">
            {instrument?.name ?? <Skeleton.Title animated />}
          </p>
          <div className="tw-detail-price-row">
            <strong
              className="tw-detail-price"
              data-sign={signOf(ticker?.changePct)}
              data-testid="detail-price"
            >
              {formatPrice(price, instrument, language)}
            </strong>
            <ChangeTag pct={ticker?.changePct ?? null} language={language} />
          </div>
          <p className="tw-muted tw-detail-time">
            {ticker?.ts
              ? t('trade.price_at', {
                  time: formatDateTime(ticker.ts, language, { timeStyle: 'medium' }),
                })
              : t('trade.no_price')}
          </p>
          <dl className="tw-detail-stats">
            <div>
              <dt>{t('trade.high_24h')}</dt>
              <dd>{formatPrice(ticker?.high24h, instrument, language)}</dd>
            </div>
            <div>
              <dt>{t('trade.low_24h')}</dt>
              <dd>{formatPrice(ticker?.low24h, instrument, language)}</dd>
            </div>
            <div>
              <dt>{t('trade.change_24h')}</dt>
              <dd className="tw-pnl" data-sign={signOf(ticker?.changePct)}>
                {ticker?.changePct ? formatPercent(ticker.changePct, language, 2, true) : '—'}
              </dd>
            </div>
            <div>
              <dt>{t('trade.volume_24h', { unit: instrument?.base ?? '' })}</dt>
              <dd>{ticker?.volume24h ? fmt(truncateDecimal(ticker.volume24h, 2)) : '—'}</dd>
            </div>
          </dl>
          <SourceNote tickers={[ticker]} />
        </section>

        <section className="tw-card tw-detail-chart" aria-label={t('trade.chart')}>
          <div className="tw-intervals" role="tablist" aria-label={t('trade.interval')}>
            {KLINE_INTERVALS.map((value) => (
              <button
                key={value}
                type="button"
                role="tab"
                aria-selected={value === interval}
                onClick={() => onInterval(value)}
              >
                {t(`trade.interval_${value}`)}
              </button>
            ))}
          </div>
          <Suspense fallback={<div className="tw-chart-box tw-chart-loading" />}>
            {instrument ? (
              <CandleChart
                candles={klines.data?.items}
                priceScale={instrument.priceScale}
                interval={interval}
                language={language}
              />
            ) : (
              <div className="tw-chart-box tw-chart-loading" />
            )}
          </Suspense>
          {klines.isError && <p className="tw-muted">{t('trade.chart_failed')}</p>}
        </section>

        <section className="tw-card tw-detail-rules" aria-labelledby="detail-rules">
          <h2 id="detail-rules">{t('trade.how_it_settles')}</h2>
          <p className="tw-muted">{t('trade.rule_summary')}</p>
        </section>
      </div>

      <div className="tw-detail-actions">
        {instrument && config.isSuccess && (!tradable || !price) && (
          <p className="tw-detail-why" role="status" data-testid="not-tradable">
            {!tradable ? t('trade.not_tradable') : t('trade.waiting_for_price')}
          </p>
        )}
        <Button
          className="tw-buy"
          data-direction="up"
          disabled={!tradable || !price}
          onClick={() => setDirection('up')}
        >
          {t('trade.buy_up')}
        </Button>
        <Button
          className="tw-buy"
          data-direction="down"
          disabled={!tradable || !price}
          onClick={() => setDirection('down')}
        >
          {t('trade.buy_down')}
        </Button>
      </div>

      {instrument && config.data && (
        <OrderPopup
          instrument={instrument}
          direction={direction}
          config={config.data}
          price={price}
          onClose={() => setDirection(null)}
          onPlaced={(order) => {
            setDirection(null);
            setDeliveryId(order.id);
          }}
        />
      )}
      {instrument && (
        <DeliveryPopup
          orderId={deliveryId}
          instrument={instrument}
          price={price}
          onClose={() => setDeliveryId(null)}
        />
      )}
    </Page>
  );
}
