import type { OrderState } from '@tradewind/contract/instant';
import { DotLoading, ErrorBlock, InfiniteScroll, Skeleton, Tabs } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { useContractConfig } from '@/api/contracts/get-config.ts';
import { useOrders } from '@/api/contracts/get-orders.ts';
import { OrderRow } from '@/ui/order-row.tsx';
import { Page } from '@/ui/page.tsx';
import { LossLimit } from './components/loss-limit.tsx';
import './contracts.css';

/** /Contract: my contracts, open (in progress or ended) or settled (completed), a page at a time. */
export function ContractPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: OrderState = params.get('tab') === 'settled' ? 'settled' : 'open';
  const config = useContractConfig();
  return (
    <Page title={t('routes.Contract')} backTo="/">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'open' ? {} : { tab: key }, { replace: true })}
        className="tw-contract-tabs"
      >
        <Tabs.Tab key="open" title={t('contracts.tab_open')} />
        <Tabs.Tab key="settled" title={t('contracts.tab_settled')} />
      </Tabs>
      {config.data && <LossLimit config={config.data} />}
      <OrderList key={tab} state={tab} />
    </Page>
  );
}

function OrderList({ state }: { state: OrderState }) {
  const { t } = useTranslation();
  const orders = useOrders(state);
  const items = orders.data?.pages.flatMap((page) => page.items) ?? [];
  if (orders.isPending) return <Skeleton.Paragraph lineCount={6} animated />;
  if (orders.isError && items.length === 0)
    return <ErrorBlock status="default" title={t('contracts.load_failed')} description="" />;
  return (
    <section className="tw-card tw-contract-list" aria-label={t(`contracts.tab_${state}`)}>
      {items.length === 0 ? (
        <p className="tw-empty-line">
          {t(state === 'open' ? 'contracts.no_open' : 'contracts.no_settled')}
        </p>
      ) : (
        <div className="tw-order-list" data-testid={`contracts-${state}`}>
          {items.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </div>
      )}
      {items.length > 0 && (
        <InfiniteScroll
          hasMore={orders.hasNextPage}
          loadMore={async () => void (await orders.fetchNextPage({ throwOnError: true }))}
        >
          {(hasMore, failed, retry) =>
            failed ? (
              <button type="button" className="tw-link" onClick={retry}>
                {t('contracts.retry')}
              </button>
            ) : hasMore ? (
              <DotLoading color="primary" />
            ) : (
              <span className="tw-muted">{t('contracts.no_more')}</span>
            )
          }
        </InfiniteScroll>
      )}
    </section>
  );
}
