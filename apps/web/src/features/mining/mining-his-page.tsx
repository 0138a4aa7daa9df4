import {
  MINING_HISTORY_TABS,
  type MiningHistoryTab,
  type MiningRental,
} from '@tradewind/contract/mining';
import { DotLoading, InfiniteScroll, Skeleton, Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { useMiningRentals } from './api/get-rentals.ts';
import { StatusTag } from './components/status-tag.tsx';
import './mining.css';

const isTab = (value: string | null): value is MiningHistoryTab =>
  MINING_HISTORY_TABS.includes(value as MiningHistoryTab);

/** /MiningHis: my miners, as tabs active (under review or running), completed (or rejected), all. */
export function MiningHisPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: MiningHistoryTab = isTab(params.get('tab'))
    ? (params.get('tab') as MiningHistoryTab)
    : 'active';
  return (
    <Page title={t('routes.MiningHis')} backTo="/Mining">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'active' ? {} : { tab: key }, { replace: true })}
      >
        {MINING_HISTORY_TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`mining.tab_${key}`)} />
        ))}
      </Tabs>
      <RentalList key={tab} tab={tab} />
    </Page>
  );
}

function RentalList({ tab }: { tab: MiningHistoryTab }) {
  const { t } = useTranslation();
  const rentals = useMiningRentals(tab);
  const items = rentals.data?.pages.flatMap((page) => page.items) ?? [];
  if (rentals.isPending) return <Skeleton.Paragraph lineCount={6} animated />;
  if (rentals.isError && items.length === 0)
    return (
      <LoadFailed
        error={rentals.error}
        title={t('mining.load_failed')}
        onRetry={() => void rentals.refetch()}
        retrying={rentals.isFetching}
      />
    );
  return (
    <section className="tw-mining-list" aria-label={t(`mining.tab_${tab}`)}>
      {items.length === 0 ? (
        <div className="tw-card">
          <p className="tw-muted">{t('mining.no_rentals')}</p>
          <Link to="/Mining" className="tw-link">
            {t('mining.browse')}
          </Link>
        </div>
      ) : (
        items.map((rental) => <RentalRow key={rental.id} rental={rental} />)
      )}
      {items.length > 0 && (
        <InfiniteScroll
          hasMore={rentals.hasNextPage}
          loadMore={async () => void (await rentals.fetchNextPage({ throwOnError: true }))}
        >
          {(hasMore, failed, retry) =>
            failed ? (
              <button type="button" className="tw-link" onClick={retry}>
                {t('mining.retry')}
              </button>
            ) : hasMore ? (
              <DotLoading color="primary" />
            ) : (
              <span className="tw-muted">{t('mining.no_more')}</span>
            )
          }
        </InfiniteScroll>
      )}
    </section>
  );
}

function RentalRow({ rental }: { rental: MiningRental }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <Link
      to={`/MiningDetail?id=${rental.id}`}
      className="tw-card tw-mining-row"
      data-rental-id={rental.id}
    >
      <div className="tw-mining-card-head">
        <h2>{rental.productName}</h2>
        <StatusTag status={rental.status} />
      </div>
      <div className="tw-mining-row-grid">
        <span className="tw-muted">{t('mining.pay_amount')}</span>
        <span>{formatDecimal(rental.amount, lang)} USDT</span>
        <span className="tw-muted">{t('mining.paid_out')}</span>
        <span>
          {formatDecimal(rental.paidOut, lang)} / {formatDecimal(rental.totalProfit, lang)} USDT
        </span>
        <span className="tw-muted">
          {rental.endsAt ? t('mining.ends_at') : t('mining.rented_at')}
        </span>
        <span>{formatDateTime(rental.endsAt ?? rental.createdAt, lang)}</span>
      </div>
    </Link>
  );
}
