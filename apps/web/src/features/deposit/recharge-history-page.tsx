import { Button, ErrorBlock, InfiniteScroll, Skeleton, Tag } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import {
  DEPOSIT_REJECT_REASON_KEYS,
  DEPOSIT_STATUS_KEYS,
  type Deposit,
  type DepositStatus,
} from '@tradewind/contract/deposit';
import { formatDateTime } from '@/lib/format.ts';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { useDepositHistory } from './api/get-deposit-history.ts';

const STATUS_COLORS: Record<DepositStatus, 'warning' | 'success' | 'danger'> = {
  pending_payment: 'warning',
  paid: 'success',
  rejected: 'danger',
};

/** 98349a…eea79f: enough to recognise, short enough for a phone. */
const shortTxid = (txid: string) =>
  txid.length > 14 ? `${txid.slice(0, 6)}…${txid.slice(-6)}` : txid;

/** spec §2 /RechargeHistory: the user's deposits, newest first (amount, time, status). */
export function RechargeHistoryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const history = useDepositHistory();
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];

  let body;
  if (history.isPending) {
    body = (
      <div className="tw-card" aria-busy="true" aria-label={t('deposit.loading')}>
        <Skeleton.Paragraph lineCount={4} animated />
      </div>
    );
  } else if (history.isError && items.length === 0) {
    body = (
      <ErrorBlock
        status="default"
        title={history.error.message}
        description={null}
        style={{ '--image-height': '120px', paddingTop: 32 }}
      >
        <Button color="primary" fill="outline" onClick={() => void history.refetch()}>
          {t('deposit.load_failed')}
        </Button>
      </ErrorBlock>
    );
  } else if (items.length === 0) {
    body = (
      <ErrorBlock
        status="empty"
        title={t('deposit.history_empty')}
        description={null}
        style={{ '--image-height': '120px', paddingTop: 32 }}
      >
        <Button color="primary" onClick={() => navigate('/Recharge')}>
          {t('deposit.deposit_now')}
        </Button>
      </ErrorBlock>
    );
  } else {
    body = (
      <>
        <ul
          aria-label={t('routes.RechargeHistory')}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {items.map((item) => (
            <DepositRow key={item.id} item={item} />
          ))}
        </ul>
        <InfiniteScroll
          hasMore={history.hasNextPage}
          loadMore={async () => {
            await history.fetchNextPage({ throwOnError: true });
          }}
        >
          {(hasMore, failed, retry) => (
            <span className="tw-muted">
              {failed ? (
                <button type="button" className="tw-link" onClick={retry}>
                  {t('deposit.load_failed')}
                </button>
              ) : hasMore ? (
                t('deposit.loading')
              ) : (
                t('deposit.no_more')
              )}
            </span>
          )}
        </InfiniteScroll>
      </>
    );
  }

  return (
    <Page title={t('routes.RechargeHistory')} backTo="/Recharge">
      {body}
    </Page>
  );
}

function DepositRow({ item }: { item: Deposit }) {
  const { t, i18n } = useTranslation();
  const time = formatDateTime(item.createdAt, i18n.language);
  const copy = async () => {
    await navigator.clipboard?.writeText(item.txid).catch(() => undefined);
    showToast({ content: t('success.copied'), duration: 2000 });
  };
  return (
    <li className="tw-card" data-testid="deposit-row" style={{ padding: '14px 16px' }}>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 8,
          marginBottom: 8,
        }}
      >
        <strong style={{ fontSize: 17, overflowWrap: 'anywhere' }} aria-label={t('deposit.amount')}>
          +{item.amount} {item.asset}
        </strong>
        <Tag color={STATUS_COLORS[item.status]} fill="outline" style={{ flex: 'none' }}>
          {t(DEPOSIT_STATUS_KEYS[item.status])}
        </Tag>
      </div>
      <dl
        style={{
          display: 'grid',
          gridTemplateColumns: 'auto 1fr',
          gap: '4px 12px',
          margin: 0,
          fontSize: 13,
        }}
      >
        <dt className="tw-muted">{t('deposit.time')}</dt>
        <dd style={{ margin: 0, textAlign: 'right' }}>{time}</dd>
        {item.status !== 'rejected' && (
          <>
            <dt className="tw-muted">{t('deposit.confirmations_label')}</dt>
            <dd style={{ margin: 0, textAlign: 'right' }}>
              {item.confirmations}/{item.requiredConfirmations}
            </dd>
          </>
        )}
        <dt className="tw-muted">{t('deposit.txid')}</dt>
        <dd style={{ margin: 0, textAlign: 'right' }}>
          <button
            type="button"
            className="tw-link"
            onClick={copy}
            aria-label={t('deposit.copy_txid')}
            title={item.txid}
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 4,
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            }}
          >
            {shortTxid(item.txid)} <FileOutline aria-hidden />
          </button>
        </dd>
      </dl>
      <div style={{ marginTop: 6, fontSize: 12 }} className="tw-muted">
        {t('deposit.network_badge')}
      </div>
      {item.reason && (
        <p style={{ margin: '8px 0 0', fontSize: 13, color: 'var(--tw-down)' }}>
          {t(DEPOSIT_REJECT_REASON_KEYS[item.reason])}
        </p>
      )}
    </li>
  );
}
