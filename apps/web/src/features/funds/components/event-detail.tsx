import { type FundsEvent, describeFundsEvent } from '@tradewind/contract/funds';
import { Button, Popup } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { showToast } from '@/ui/toast.ts';
import { LockedNote, SignedAmount } from './event-item.tsx';

/**
 * An event's detail, as a sheet: its net change per account, each posting (the available
 * and locked legs, with their types), the time, the memo, and the reference, which may be
 * copied.
 */
export function EventDetail({ event, onClose }: { event: FundsEvent | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const title = event ? describeFundsEvent(event, (key, params) => t(key, params)) : '';
  const copy = async () => {
    if (!event) return;
    await navigator.clipboard?.writeText(event.reference).catch(() => undefined);
    showToast({ content: t('success.copied'), duration: 2000 });
  };
  return (
    <Popup
      visible={event !== null}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="tw-fd-detail-popup"
      destroyOnClose
    >
      {event && (
        <div
          role="dialog"
          aria-label={title}
          className="tw-fd-detail"
          data-testid="funds-event-detail"
        >
          <h2 className="tw-fd-sheet-title">{title}</h2>
          <div className="tw-fd-detail-body">
            <dl className="tw-fd-lines">
              <div className="tw-fd-line">
                <dt>{t('funds.detail_time')}</dt>
                <dd>
                  <time dateTime={event.time}>{formatDateTime(event.time, i18n.language)}</time>
                </dd>
              </div>
              {event.changes.map((change) => (
                <div className="tw-fd-line" key={`${change.wallet}:${change.asset}`}>
                  <dt>
                    {t('funds.detail_net', {
                      account: t(`funds_export.wallet_${change.wallet}`),
                    })}
                  </dt>
                  <dd className="tw-fd-line-amounts">
                    <SignedAmount amount={change.amount} asset={change.asset} />
                    <LockedNote change={change} />
                  </dd>
                </div>
              ))}
            </dl>
            <h3 className="tw-fd-detail-heading">{t('funds.detail_postings')}</h3>
            <ul className="tw-fd-postings">
              {event.postings.map((posting) => (
                <li key={posting.id} className="tw-fd-posting" data-testid="funds-event-posting">
                  <span className="tw-fd-posting-type">
                    {t(`entry_types.${posting.type}`)}
                    <span className="tw-muted tw-fd-posting-account">
                      {t(
                        `funds_export.wallet_${posting.wallet}${posting.bucket === 'locked' ? '_locked' : ''}`,
                      )}
                    </span>
                  </span>
                  <SignedAmount amount={posting.amount} asset={posting.asset} />
                </li>
              ))}
            </ul>
            {event.memo && <p className="tw-fd-memo">{event.memo}</p>}
            <div className="tw-fd-reference">
              <span className="tw-muted">{t('funds.detail_reference')}</span>
              <code className="tw-fd-reference-text">{event.reference}</code>
              <Button size="mini" fill="outline" onClick={copy}>
                {t('funds.copy')}
              </Button>
            </div>
          </div>
          <div className="tw-fd-sheet-footer">
            <Button block onClick={onClose}>
              {t('funds.close')}
            </Button>
          </div>
        </div>
      )}
    </Popup>
  );
}
