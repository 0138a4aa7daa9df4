import type { Order } from '@tradewind/contract/instant';
import { INSTRUMENTS, isInstrumentSymbol } from '@tradewind/contract/market';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { signOf } from '@/lib/contract-math.ts';
import { formatDateTime, formatDecimal, formatSigned } from '@/lib/format.ts';
import { formatCountdown, msUntil } from '@/lib/server-clock.ts';
import { useNow } from '@/lib/use-now.ts';

/** BTCUSDT → BTC/USDT, from the contract's instrument list (no request needed). */
export function symbolName(symbol: string): string {
  return isInstrumentSymbol(symbol)
    ? `${INSTRUMENTS[symbol].base}/${INSTRUMENTS[symbol].quote}`
    : symbol;
}

/** "Up" in green or "Down" in red, as a small tag. */
export function DirectionTag({ direction }: { direction: Order['direction'] }) {
  const { t } = useTranslation();
  return (
    <span className="tw-direction" data-direction={direction}>
      {t(`positions.direction_${direction}`)}
    </span>
  );
}

/** An order's spec §4 status: in progress, ended (delivered, being settled) or completed. */
export function StatusTag({ order, remainingMs }: { order: Order; remainingMs: number }) {
  const { t } = useTranslation();
  // Past delivery but not yet settled reads "ended" even before the list is refreshed.
  const status =
    order.displayStatus === 'in_progress' && remainingMs <= 0 ? 'ended' : order.displayStatus;
  return (
    <span className="tw-status" data-status={status}>
      {t(`positions.status_${status}`)}
    </span>
  );
}

/** A position in a list: what, which way, how much, and the countdown or the result. Opens /ContractDetail. */
export function OrderRow({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const open = order.state === 'open';
  const now = useNow(1000, open);
  const remainingMs = open ? msUntil(order.deliverAt, now) : 0;
  const fmt = (value: string, decimals = 2) => formatDecimal(value, i18n.language, decimals);
  return (
    <Link to={`/ContractDetail?id=${order.id}`} className="tw-order-row" data-order-id={order.id}>
      <span className="tw-order-main">
        <span className="tw-order-title">
          <strong>{symbolName(order.symbol)}</strong>
          <DirectionTag direction={order.direction} />
          <span className="tw-muted">
            {t('positions.period_s', { seconds: order.periodSeconds })}
          </span>
        </span>
        <span className="tw-muted">
          {fmt(order.stake)} USDT · {formatDateTime(order.createdAt, i18n.language)}
        </span>
      </span>
      <span className="tw-order-side">
        {open ? (
          <>
            <span
              className="tw-order-countdown"
              aria-label={t('positions.remaining')}
              data-testid="order-countdown"
            >
              {formatCountdown(remainingMs)}
            </span>
            <StatusTag order={order} remainingMs={remainingMs} />
          </>
        ) : (
          <>
            <span className="tw-pnl" data-sign={signOf(order.profit)}>
              {order.profit === null ? '—' : `${formatSigned(order.profit, i18n.language, 2)}`}
            </span>
            <span className="tw-muted">
              {order.outcome
                ? t(`positions.outcome_${order.outcome}`)
                : t(`positions.status_${order.displayStatus}`)}
            </span>
          </>
        )}
      </span>
    </Link>
  );
}
