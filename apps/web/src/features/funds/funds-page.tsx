import { isAssetCode } from '@tradewind/contract/wallet';
import { Button, DotLoading, ErrorBlock, InfiniteScroll } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useLocation, useSearchParams } from '@/lib/router.tsx';
import { ApiError } from '@tradewind/http-client/api-error';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { exportPostings } from './api/export-postings.ts';
import type { FundsEvent } from '@tradewind/contract/funds';
import { useEvents } from './api/get-events.ts';
import { EventDetail } from './components/event-detail.tsx';
import { EventItem } from './components/event-item.tsx';
import { FilterBar } from './components/filter-bar.tsx';
import { type Filters, filterParams } from './filters.ts';
import './funds.css';
import './events.css';

/**
 * /WalletDetail and /FinancialDetail: the user's funds detail, one row per event (a ledger
 * entry as it touched the user: an order placed, won or lost, a deposit, a transfer…) with
 * its net change, newest first, filtered, scrolled a page at a time until "no more data".
 * A row opens the event's postings and reference. The export stays one row per posting.
 */
export function FundsPage() {
  const { t } = useTranslation();
  const location = useLocation();
  // /SelectCoin → /WalletDetail?asset=BTC opens on that currency.
  const [search] = useSearchParams();
  const initialAsset = search.get('asset');
  const [filters, setFilters] = useState<Filters>(() => ({
    types: [],
    asset: isAssetCode(initialAsset) ? initialAsset : undefined,
  }));
  const params = useMemo(() => filterParams(filters), [filters]);
  const events = useEvents(params);
  const [open, setOpen] = useState<FundsEvent | null>(null);
  const [exporting, setExporting] = useState(false);
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  const title = t(
    location.pathname === '/FinancialDetail' ? 'routes.FinancialDetail' : 'routes.WalletDetail',
  );

  const download = async () => {
    setExporting(true);
    try {
      await exportPostings(params, new Date());
      showToast({ content: t('funds.exported'), duration: 2000 });
    } catch (error) {
      // Form-level (422) errors are not toasted by the client; there is no form here, so say it.
      if (error instanceof ApiError && error.isValidation)
        showToast({ content: error.message, duration: 2000 });
    } finally {
      setExporting(false);
    }
  };

  const exportButton = (
    <Button
      size="small"
      fill="none"
      onClick={download}
      loading={exporting}
      aria-label={t('funds.export')}
      className="tw-fd-export"
    >
      <DownlandOutline aria-hidden /> {t('funds.export')}
    </Button>
  );

  return (
    <Page title={title} backTo="/My" right={exportButton}>
      <FilterBar filters={filters} onChange={setFilters} />
      {events.isError ? (
        <ErrorBlock
          status="disconnected"
          title={t('funds.load_failed')}
          description={events.error instanceof ApiError ? events.error.message : ''}
        >
          <Button onClick={() => void events.refetch()}>{t('funds.retry')}</Button>
        </ErrorBlock>
      ) : events.isPending ? (
        <div className="tw-fd-status">
          <DotLoading color="primary" /> {t('funds.loading')}
        </div>
      ) : items.length === 0 ? (
        <ErrorBlock status="empty" title={t('funds.empty')} description="" />
      ) : (
        <>
          <ul className="tw-fd-list" aria-label={title}>
            {items.map((event) => (
              <EventItem key={event.id} event={event} onOpen={() => setOpen(event)} />
            ))}
          </ul>
          <InfiniteScroll
            loadMore={async () => void (await events.fetchNextPage({ throwOnError: true }))}
            hasMore={events.hasNextPage}
          >
            {(hasMore, failed, retry) =>
              failed ? (
                <button type="button" className="tw-link" onClick={retry}>
                  {t('funds.retry')}
                </button>
              ) : hasMore ? (
                <span className="tw-muted">
                  <DotLoading /> {t('funds.loading')}
                </span>
              ) : (
                <span className="tw-muted">{t('funds.no_more')}</span>
              )
            }
          </InfiniteScroll>
        </>
      )}
      <EventDetail event={open} onClose={() => setOpen(null)} />
    </Page>
  );
}
