import type { Order } from '@tradewind/contract/instant';
import type { Instrument } from '@tradewind/contract/market';
import { Button, DotLoading, Popup, ProgressCircle } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useOrder } from '@/api/contracts/get-order.ts';
import { orderQueryKey } from '@/api/query-keys.ts';
import { useRealtimeConnected } from '@/api/realtime.ts';
import { pnlAt, signOf } from '@/lib/contract-math.ts';
import { formatDecimal, formatSigned } from '@/lib/format.ts';
import { formatCountdown, msUntil } from '@/lib/server-clock.ts';
import { useNow } from '@/lib/use-now.ts';
import { DirectionTag } from '@/ui/order-row.tsx';
import { formatPrice, pairName } from '@/ui/quote-list.tsx';
import { showToast } from '@/ui/toast.ts';

/** How long after delivery the screen waits for the settled event before asking the server itself. */
const EVENT_GRACE_MS = 3_000;
const POLL_MS = 2_000;

interface DeliveryPopupProps {
  orderId: string | null;
  instrument: Instrument;
  /** The live price, for the provisional P/L while the order runs. */
  price: string | null;
  onClose: () => void;
}

/**
 * After an order: the countdown to delivery, then the result when "settlement at expiry
 * completed" arrives over the socket. When the socket is down (or the event is late) the
 * order is polled every 2 s instead.
 */
export function DeliveryPopup({ orderId, instrument, price, onClose }: DeliveryPopupProps) {
  const { t } = useTranslation();
  return (
    <Popup
      visible={orderId !== null}
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="tw-sheet"
      aria-label={t('trade.delivery_title')}
    >
      {orderId && (
        <Delivery orderId={orderId} instrument={instrument} price={price} onClose={onClose} />
      )}
    </Popup>
  );
}

function Delivery({
  orderId,
  instrument,
  price,
  onClose,
}: DeliveryPopupProps & { orderId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const connected = useRealtimeConnected();
  const now = useNow(250);
  // What the cache holds decides whether to poll; the socket's events update it otherwise.
  const cached = useQueryClient().getQueryData<Order>(orderQueryKey(orderId));
  const eventLate =
    cached !== undefined &&
    msUntil(new Date(Date.parse(cached.deliverAt) + EVENT_GRACE_MS).toISOString(), now) === 0;
  const poll = cached?.state !== 'settled' && (!connected || eventLate) ? POLL_MS : false;
  const order = useOrder(orderId, poll).data;
  const remainingMs = order ? msUntil(order.deliverAt, now) : 0;

  // "Settlement at expiry completed" (spec §8), once, when the result arrives.
  const announced = useRef(false);
  useEffect(() => {
    if (order?.state === 'settled' && !announced.current) {
      announced.current = true;
      showToast({ content: t('success.settlement'), duration: 2000 });
    }
  }, [order?.state, t]);

  if (!order) {
    return (
      <div className="tw-delivery tw-delivery-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  const fmt = (value: string, decimals = 2) => formatDecimal(value, i18n.language, decimals);
  const periodMs = order.periodSeconds * 1000;
  const provisional = order.state === 'open' && price ? pnlAt(order, price) : null;

  return (
    <div className="tw-delivery" data-testid="delivery" data-state={order.state}>
      <header className="tw-delivery-head">
        <h2>{pairName(instrument)}</h2>
        <DirectionTag direction={order.direction} />
        <span className="tw-muted">
          {t('positions.period_s', { seconds: order.periodSeconds })}
        </span>
      </header>

      {order.state === 'open' ? (
        <div className="tw-delivery-clock">
          <ProgressCircle
            percent={Math.round(((periodMs - remainingMs) / periodMs) * 100)}
            style={{ '--size': '132px', '--track-width': '8px' }}
          >
            <span className="tw-delivery-countdown" data-testid="delivery-countdown">
              {remainingMs > 0 ? formatCountdown(remainingMs) : <DotLoading />}
            </span>
          </ProgressCircle>
          <p className="tw-muted">
            {remainingMs > 0 ? t('trade.delivering_in') : t('trade.settling')}
          </p>
        </div>
      ) : (
        <div
          className="tw-delivery-result"
          data-outcome={order.outcome}
          data-testid="delivery-result"
        >
          <strong>{t(`positions.outcome_${order.outcome ?? 'void'}`)}</strong>
          <span className="tw-pnl" data-sign={signOf(order.profit)} data-testid="delivery-profit">
            {order.profit !== null ? `${formatSigned(order.profit, i18n.language, 2)} USDT` : '—'}
          </span>
          <span className="tw-muted">{t(`trade.outcome_note_${order.outcome ?? 'void'}`)}</span>
        </div>
      )}

      <dl className="tw-order-figures">
        <dt>{t('trade.stake')}</dt>
        <dd>{fmt(order.stake)} USDT</dd>
        <dt>{t('trade.opening_price')}</dt>
        <dd data-testid="delivery-open">
          {formatPrice(order.openTick.price, instrument, i18n.language)}
        </dd>
        {order.state === 'open' ? (
          <>
            <dt>{t('trade.current_price')}</dt>
            <dd>{formatPrice(price, instrument, i18n.language)}</dd>
            <dt>{t('trade.current_pnl')}</dt>
            <dd className="tw-pnl" data-sign={signOf(provisional)}>
              {provisional !== null ? `${formatSigned(provisional, i18n.language, 2)} USDT` : '—'}
            </dd>
          </>
        ) : (
          <>
            <dt>{t('trade.closing_price')}</dt>
            <dd data-testid="delivery-close">
              {order.closeTick
                ? formatPrice(order.closeTick.price, instrument, i18n.language)
                : '—'}
            </dd>
            <dt>{t('trade.payout')}</dt>
            <dd data-testid="delivery-payout">
              {order.payout !== null ? `${fmt(order.payout)} USDT` : '—'}
            </dd>
          </>
        )}
      </dl>
      {!connected && order.state === 'open' && (
        <p className="tw-muted tw-delivery-offline">{t('trade.offline_polling')}</p>
      )}

      <div className="tw-delivery-actions">
        <Button block onClick={() => navigate(`/ContractDetail?id=${order.id}`)}>
          {t('trade.view_details')}
        </Button>
        <Button block color="primary" onClick={onClose}>
          {order.state === 'open' ? t('trade.hide') : t('trade.trade_again')}
        </Button>
      </div>
    </div>
  );
}
