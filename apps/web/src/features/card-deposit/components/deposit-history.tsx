import {
  CARD_DEPOSIT_STATUS_LABELS,
  type CardDeposit,
  type CardDepositStatus,
} from '@tradewind/contract/card-deposit';
import { Button, ErrorBlock, Skeleton, Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { useCardDeposits } from '../api/get-deposits.ts';

const TAG_COLOR: Record<CardDepositStatus, 'warning' | 'success' | 'danger'> = {
  pending: 'warning',
  paid: 'success',
  rejected: 'danger',
};

function Record({ deposit }: { deposit: CardDeposit }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="tw-record" data-testid="card-deposit-record">
      <div
        style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}
      >
        <strong style={{ fontSize: 16 }}>
          {deposit.amount} {deposit.asset}
        </strong>
        <Tag color={TAG_COLOR[deposit.status]} fill="outline">
          {t(CARD_DEPOSIT_STATUS_LABELS[deposit.status])}
        </Tag>
      </div>
      <div className="tw-muted" style={{ marginTop: 4 }}>
        {t('card_deposit.record_line', { fee: deposit.fee, actual: deposit.actualAmount })}
      </div>
      <div className="tw-muted" style={{ marginTop: 2 }}>
        {formatDateTime(deposit.createdAt, i18n.language)}
      </div>
      {deposit.status === 'rejected' && deposit.reason && (
        <div className="tw-reason" style={{ marginTop: 8 }} role="note">
          <strong>{t('card_deposit.reason')}</strong>{' '}
          <span style={{ overflowWrap: 'anywhere' }}>{deposit.reason}</span>
        </div>
      )}
    </li>
  );
}

/** The user's deposits, newest first, with "load more" until there is no more data. */
export function DepositHistory() {
  const { t } = useTranslation();
  const deposits = useCardDeposits();
  const items = deposits.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="tw-card" aria-labelledby="records-title">
      <h2 id="records-title" className="tw-step">
        {t('card_deposit.records')}
      </h2>
      {deposits.isPending ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : deposits.isError && items.length === 0 ? (
        <LoadFailed
          error={deposits.error}
          onRetry={() => void deposits.refetch()}
          retrying={deposits.isFetching}
        />
      ) : items.length === 0 ? (
        <ErrorBlock
          status="empty"
          title={t('card_deposit.no_records')}
          description=""
          style={{ '--image-height': '80px' }}
        />
      ) : (
        <>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((deposit) => (
              <Record key={deposit.id} deposit={deposit} />
            ))}
          </ul>
          {deposits.hasNextPage ? (
            <Button
              block
              fill="none"
              color="primary"
              loading={deposits.isFetchingNextPage}
              onClick={() => void deposits.fetchNextPage()}
            >
              {t('card_deposit.load_more')}
            </Button>
          ) : (
            <p className="tw-muted" style={{ textAlign: 'center', margin: '12px 0 0' }}>
              {t('card_deposit.no_more')}
            </p>
          )}
        </>
      )}
    </section>
  );
}
