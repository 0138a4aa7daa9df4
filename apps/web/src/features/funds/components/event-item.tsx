import {
  type FundsEvent,
  type FundsEventChange,
  describeFundsEvent,
} from '@tradewind/contract/funds';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';

const isZero = (amount: string) => /^-?0(\.0*)?$/.test(amount);
const negative = (amount: string) => amount.startsWith('-') && !isZero(amount);

/** A signed amount with its asset: "+84.8 USDT", "−100.2 USDT", "0 USDT". */
export function SignedAmount({ amount, asset }: { amount: string; asset: string }) {
  const { i18n } = useTranslation();
  const sign = isZero(amount) ? '' : negative(amount) ? '' : '+';
  const tone = isZero(amount) ? 'tw-fd-zero' : negative(amount) ? 'tw-fd-out' : 'tw-fd-in';
  return (
    <span className={`tw-fd-amount ${tone}`}>
      {sign}
      {formatDecimal(amount, i18n.language)} {asset}
    </span>
  );
}

/** What the event froze or released in this account, when it did. */
export function LockedNote({ change }: { change: FundsEventChange }) {
  const { t, i18n } = useTranslation();
  if (isZero(change.locked)) return null;
  const frozen = !change.locked.startsWith('-');
  const amount = formatDecimal(change.locked.replace('-', ''), i18n.language);
  return (
    <span className={frozen ? 'tw-fd-lock tw-fd-lock-on' : 'tw-fd-lock'}>
      {t(frozen ? 'funds.frozen_amount' : 'funds.released_amount', {
        amount: `${amount} ${change.asset}`,
      })}
    </span>
  );
}

/**
 * One event: what happened in plain words, when, and its net change per account (the
 * account named when the event touched both, or any but the spot account). A button: it
 * opens the event's detail.
 */
export function EventItem({ event, onOpen }: { event: FundsEvent; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const title = describeFundsEvent(event, (key, params) => t(key, params));
  const wallets = new Set(event.changes.map((c) => c.wallet));
  const showWallet = (change: FundsEventChange) => wallets.size > 1 || change.wallet !== 'spot';
  return (
    <li className="tw-fd-item" data-testid="funds-event">
      <button type="button" className="tw-fd-event" onClick={onOpen} aria-haspopup="dialog">
        <span className="tw-fd-event-main">
          <span className="tw-fd-type">{title}</span>
          <time dateTime={event.time} className="tw-muted tw-fd-time">
            {formatDateTime(event.time, i18n.language)}
          </time>
        </span>
        <span className="tw-fd-changes">
          {event.changes.map((change) => (
            <span key={`${change.wallet}:${change.asset}`} className="tw-fd-change">
              <SignedAmount amount={change.amount} asset={change.asset} />
              {showWallet(change) && (
                <span className="tw-fd-wallet tw-muted">
                  {t(`funds_export.wallet_${change.wallet}`)}
                </span>
              )}
              <LockedNote change={change} />
            </span>
          ))}
        </span>
      </button>
    </li>
  );
}
