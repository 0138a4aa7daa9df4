import type { FundsPosting } from '@tradewind/contract/funds';
import { Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';

/** One posting: its type in the user's language, when, which account, the signed amount, and the entry's memo. */
export function PostingItem({ posting }: { posting: FundsPosting }) {
  const { t, i18n } = useTranslation();
  const time = formatDateTime(posting.time, i18n.language);
  const negative = posting.amount.startsWith('-');
  return (
    <li className="tw-fd-item" data-testid="posting">
      <div className="tw-fd-top">
        <span className="tw-fd-type">{t(`entry_types.${posting.type}`)}</span>
        <span className={negative ? 'tw-fd-amount tw-fd-out' : 'tw-fd-amount tw-fd-in'}>
          {negative ? '' : '+'}
          {formatDecimal(posting.amount, i18n.language)} {posting.asset}
        </span>
      </div>
      <div className="tw-fd-meta">
        <time dateTime={posting.time} className="tw-muted">
          {time}
        </time>
        <Tag fill="outline" color="default">
          {t(`funds_export.wallet_${posting.wallet}`)}
        </Tag>
        {posting.bucket === 'locked' && (
          <Tag fill="outline" color="warning">
            {t('funds.locked')}
          </Tag>
        )}
      </div>
      {posting.memo && <p className="tw-fd-memo">{posting.memo}</p>}
      <p className="tw-fd-ref tw-muted">{t('funds.reference', { reference: posting.reference })}</p>
    </li>
  );
}
