import { ERROR_CODES } from '@tradewind/contract/errors';
import { type Order, outcomeOf } from '@tradewind/contract/instant';
import { type Instrument, tickerChannel } from '@tradewind/contract/market';
import { parseAmount } from '@tradewind/contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, Skeleton } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { isNotFound } from '@tradewind/http-client/api-error';
import { useContractConfig } from '@/api/contracts/get-config.ts';
import { useOrder } from '@/api/contracts/get-order.ts';
import { useInstruments } from '@/api/market/get-instruments.ts';
import { useTicker } from '@/api/market/get-ticker.ts';
import { orderQueryKey } from '@/api/query-keys.ts';
import { useChannel, useRealtimeConnected } from '@/api/realtime.ts';
import { pnlAt, ratePct, signOf } from '@/lib/contract-math.ts';
import { formatDateTime, formatDecimal, formatPercent, formatSigned } from '@/lib/format.ts';
import { formatCountdown, msUntil } from '@/lib/server-clock.ts';
import { useNow } from '@/lib/use-now.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { DirectionTag, StatusTag, symbolName } from '@/ui/order-row.tsx';
import { Page } from '@/ui/page.tsx';
import { formatPrice, pairName } from '@/ui/quote-list.tsx';
import { Verification } from './components/verification.tsx';
import './contracts.css';

const POLL_MS = 2_000;

/** /ContractDetail?id=: one order's figures, live while it runs, and how to check its result. */
export function ContractDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  const valid = id !== null && /^\d{1,18}$/.test(id);
  const connected = useRealtimeConnected();
  const now = useNow(1000);
  const cached = useQueryClient().getQueryData<Order>(orderQueryKey(id ?? ''));
  // Poll while it runs if the socket is down, and after delivery until the result is in.
  const poll =
    cached?.state === 'open' && (!connected || msUntil(cached.deliverAt, now) === 0)
      ? POLL_MS
      : false;
  const order = useOrder(valid ? id : null, poll);
  // A live event carries the order without its ticks' quotes and signed updates; the detail has them.
  const { refetch } = order;
  const partial =
    order.data !== undefined &&
    (order.data.openTick.quotes === undefined ||
      (order.data.closeTick !== null && order.data.closeTick.quotes === undefined));
  useEffect(() => {
    if (partial) void refetch();
  }, [partial, refetch]);
  const instruments = useInstruments();
  const instrument = instruments.data?.items.find((i) => i.symbol === order.data?.symbol);

  return (
    <Page title={t('routes.ContractDetail')} backTo="/Contract">
      {valid &&
      !order.data &&
      order.isError &&
      !isNotFound(order.error, ERROR_CODES.ORDER_NOT_FOUND) ? (
        <LoadFailed
          error={order.error}
          onRetry={() => void order.refetch()}
          retrying={order.isFetching}
        />
      ) : !valid || (!order.data && order.isError) ? (
        <ErrorBlock status="empty" title={t('contracts.not_found')} description="" />
      ) : !order.data ? (
        <Skeleton.Paragraph lineCount={10} animated />
      ) : (
        <OrderDetail order={order.data} instrument={instrument} now={now} />
      )}
    </Page>
  );
}

function OrderDetail({
  order,
  instrument,
  now,
}: {
  order: Order;
  instrument: Instrument | undefined;
  now: number;
}) {
  const { t, i18n } = useTranslation();
  const open = order.state === 'open';
  const ticker = useTicker(order.symbol).data;
  useChannel(open ? tickerChannel(order.symbol) : null);
  const config = useContractConfig();
  const remainingMs = open ? msUntil(order.deliverAt, now) : 0;
  const livePrice = open && remainingMs > 0 ? (ticker?.price ?? null) : null;
  const currentPnl = open ? (livePrice ? pnlAt(order, livePrice) : order.currentPnl) : order.profit;
  const headline = open ? currentPnl : order.profit;
  const fmt = (value: string, decimals = 2) => formatDecimal(value, i18n.language, decimals);
  const money = (value: string | null) => (value === null ? '—' : `${fmt(value)} USDT`);
  const signed = (value: string | null) =>
    value === null ? '—' : `${formatSigned(value, i18n.language, 2)} USDT`;

  return (
    <>
      <section className="tw-card tw-cd-head" aria-label={t('contracts.summary')}>
        <div className="tw-cd-title">
          <strong>{instrument ? pairName(instrument) : symbolName(order.symbol)}</strong>
          <DirectionTag direction={order.direction} />
          <StatusTag order={order} remainingMs={remainingMs} />
        </div>
        <p className="tw-muted tw-cd-caption">
          {open ? t('contracts.current_pnl') : t('contracts.profit')}
        </p>
        <p
          className="tw-cd-figure tw-pnl"
          data-sign={signOf(headline)}
          data-testid="detail-headline"
        >
          {signed(headline)}
        </p>
        {!open && order.outcome && (
          <p className="tw-cd-outcome" data-outcome={order.outcome} data-testid="detail-outcome">
            {t(`positions.outcome_${order.outcome}`)}
          </p>
        )}
      </section>

      <section className="tw-card" aria-labelledby="cd-facts">
        <h2 id="cd-facts" className="tw-cd-h2">
          {t('contracts.details')}
        </h2>
        <dl className="tw-facts tw-cd-facts">
          <dt>{t('contracts.stake')}</dt>
          <dd data-testid="detail-stake">{money(order.stake)}</dd>
          <dt>{t('contracts.direction')}</dt>
          <dd>{t(`positions.direction_${order.direction}`)}</dd>
          <dt>{t('contracts.period')}</dt>
          <dd>{t('positions.period_s', { seconds: order.periodSeconds })}</dd>
          <dt>{t('contracts.opening_price')}</dt>
          <dd data-testid="detail-open-price">
            {formatPrice(order.openTick.price, instrument, i18n.language)}
          </dd>
          <dt>{t('contracts.quantity')}</dt>
          <dd>
            {fmt(order.quantity, 0)} {instrument?.base ?? ''}
          </dd>
          <dt>{t('contracts.fee')}</dt>
          <dd>{money(order.fee)}</dd>
          <dt>{t('contracts.payout_rate')}</dt>
          <dd>{formatPercent(ratePct(order.payoutRate), i18n.language)}</dd>
          <dt>{t('contracts.delivery_time')}</dt>
          <dd>
            {formatDateTime(order.deliverAt, i18n.language, {
              dateStyle: 'medium',
              timeStyle: 'medium',
            })}
          </dd>
          <dt>{t('contracts.remaining')}</dt>
          <dd data-testid="detail-remaining">{open ? formatCountdown(remainingMs) : '—'}</dd>
          {open && (
            <>
              <dt>{t('contracts.current_price')}</dt>
              <dd>{formatPrice(livePrice, instrument, i18n.language)}</dd>
            </>
          )}
          <dt>{t('contracts.current_pnl')}</dt>
          <dd className="tw-pnl" data-sign={signOf(currentPnl)} data-testid="detail-current-pnl">
            {signed(currentPnl)}
          </dd>
          <dt>{t('contracts.payout')}</dt>
          <dd>{money(order.payout)}</dd>
          <dt>{t('contracts.profit')}</dt>
          <dd className="tw-pnl" data-sign={signOf(order.profit)}>
            {signed(order.profit)}
          </dd>
          <dt>{t('contracts.return_rate')}</dt>
          <dd className="tw-pnl" data-sign={signOf(order.returnRatePct)}>
            {order.returnRatePct === null
              ? '—'
              : formatPercent(order.returnRatePct, i18n.language, 2, true)}
          </dd>
        </dl>
      </section>

      <Verification
        order={order}
        instrument={instrument}
        rule={config.data?.rule ?? null}
        comparison={comparisonText(order, instrument, i18n.language, t)}
      />
    </>
  );
}

/**
 * The rule applied to this order's two ticks, in words: "101.5 > 100.0: up wins". Computed
 * here from the ticks shown, so the user sees the result follow from them.
 */
function comparisonText(
  order: Order,
  instrument: Instrument | undefined,
  language: string,
  t: (key: string, params?: Record<string, string>) => string,
): string | null {
  if (order.state !== 'settled') return null;
  if (!order.closeTick) return t('contracts.compare_void');
  const places = Math.max(
    order.openTick.price.split('.')[1]?.length ?? 0,
    order.closeTick.price.split('.')[1]?.length ?? 0,
  );
  const open = parseAmount(order.openTick.price, places);
  const close = parseAmount(order.closeTick.price, places);
  if (open === undefined || close === undefined) return null;
  const outcome = outcomeOf(order.direction, open, close);
  const relation = close > open ? '>' : close < open ? '<' : '=';
  return t(`contracts.compare_${outcome}`, {
    close: formatPrice(order.closeTick.price, instrument, language),
    open: formatPrice(order.openTick.price, instrument, language),
    relation,
    direction: t(`positions.direction_${order.direction}`),
  });
}
