import {
  type Withdrawal,
  type WithdrawalStatus,
  withdrawalStatusKey,
} from '@tradewind/contract/withdrawal';
import { ErrorBlock, InfiniteScroll, Skeleton, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { useWithdrawals } from './api/get-withdrawals.ts';

const STATUS_COLORS: Record<WithdrawalStatus, 'warning' | 'primary' | 'success' | 'danger'> = {
  under_review: 'warning',
  processing: 'primary',
  success: 'success',
  review_failed: 'danger',
  failed: 'danger',
};

const MONO = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  fontSize: 12,
  wordBreak: 'break-all',
} as const;

/** A label and its value on one line; a long code (address, txid) goes on its own line below its label. */
function Field({
  label,
  children,
  long = false,
}: {
  label: string;
  children: ReactNode;
  long?: boolean;
}) {
  if (long) {
    return (
      <div style={{ padding: '2px 0', fontSize: 13 }}>
        <dt className="tw-muted">{label}</dt>
        <dd style={{ margin: '2px 0 0', ...MONO }}>{children}</dd>
      </div>
    );
  }
  return (
    <div
      style={{
        display: 'flex',
        gap: 12,
        justifyContent: 'space-between',
        padding: '2px 0',
        fontSize: 13,
      }}
    >
      <dt className="tw-muted" style={{ flex: 'none' }}>
        {label}
      </dt>
      <dd style={{ margin: 0, textAlign: 'right', overflowWrap: 'anywhere', minWidth: 0 }}>
        {children}
      </dd>
    </div>
  );
}

function WithdrawalItem({ item }: { item: Withdrawal }) {
  const { t, i18n } = useTranslation();
  const destination = item.card ? `${item.card.bankName} ${item.card.accountMasked}` : item.address;
  return (
    <li
      className="tw-card"
      aria-label={`${item.amount} ${item.asset} ${t(withdrawalStatusKey(item.status))}`}
    >
      <div
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}
      >
        <strong style={{ fontSize: 16 }}>
          {item.amount} {item.asset}
        </strong>
        <Tag color={STATUS_COLORS[item.status]} fill="outline" style={{ flex: 'none' }}>
          {t(withdrawalStatusKey(item.status))}
        </Tag>
      </div>
      <dl style={{ margin: '8px 0 0' }}>
        <Field label={t('withdrawal.method')}>
          {item.card ? t('withdrawal.method_card') : item.network}
        </Field>
        <Field label={t('withdrawal.fee')}>
          {item.fee} {item.asset}
        </Field>
        <Field label={t('withdrawal.amount_plus_fee')}>
          {item.total} {item.asset}
        </Field>
        <Field label={t('withdrawal.time')}>{formatDateTime(item.createdAt, i18n.language)}</Field>
        <Field label={item.card ? t('withdrawal.card') : t('withdrawal.address')} long={!item.card}>
          {destination}
        </Field>
        {item.txid && (
          <Field label={t('withdrawal.txid')} long>
            {item.txid}
          </Field>
        )}
      </dl>
      {item.reason && (
        <p
          role="note"
          style={{
            margin: '8px 0 0',
            padding: '8px 10px',
            borderRadius: 8,
            background: 'var(--tw-danger-bg)',
            color: 'var(--tw-danger-text)',
            fontSize: 13,
            overflowWrap: 'anywhere',
          }}
        >
          {t('withdrawal.reason', { reason: item.reason })}
        </p>
      )}
      {(item.status === 'review_failed' || item.status === 'failed') && (
        <p className="tw-muted" style={{ margin: '6px 0 0' }}>
          {t('withdrawal.refunded')}
        </p>
      )}
    </li>
  );
}

/** /WithdrawalHistory: every withdrawal with its status, fee, txid and, when refused, the reason. */
export function WithdrawalHistoryPage() {
  const { t } = useTranslation();
  const list = useWithdrawals();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page title={t('routes.WithdrawalHistory')} backTo="/Withdrawal">
      {list.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : list.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={list.error}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            title={t('withdrawal.history_empty')}
            description={t('withdrawal.history_empty_description')}
          />
        </div>
      ) : (
        <>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((item) => (
              <WithdrawalItem key={item.id} item={item} />
            ))}
          </ul>
          <InfiniteScroll
            loadMore={async () => void (await list.fetchNextPage())}
            hasMore={list.hasNextPage}
          >
            {list.hasNextPage ? null : <span className="tw-muted">{t('withdrawal.no_more')}</span>}
          </InfiniteScroll>
        </>
      )}
    </Page>
  );
}
