import { ErrorBlock, Skeleton, Tag } from 'antd-mobile';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { useTranslation } from '@/lib/i18n.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { useShopOrders } from './api/get-orders.ts';
import { regionName } from './components/address-form.tsx';
import { itemName } from './item-name.ts';
import './shop.css';

const STATUS_COLOR = {
  completed: 'success',
  awaiting_shipment: 'warning',
  shipped: 'primary',
} as const;

/** /ShopOrders: what the user bought with points, and for physical items the shipping status and note. */
export function ShopOrdersPage() {
  const { t, i18n } = useTranslation();
  const orders = useShopOrders();
  return (
    <Page title={t('routes.ShopOrders')} backTo="/Shop">
      <section className="tw-card">
        {orders.isPending ? (
          <Skeleton.Paragraph lineCount={5} animated />
        ) : orders.isError ? (
          <LoadFailed
            error={orders.error}
            onRetry={() => void orders.refetch()}
            retrying={orders.isFetching}
          />
        ) : orders.data.items.length === 0 ? (
          <ErrorBlock status="empty" title={t('shop.no_orders')} description="" />
        ) : (
          <ul className="tw-shop-orders" data-testid="shop-orders">
            {orders.data.items.map((order) => (
              <li key={order.id} data-testid="shop-order">
                <div className="tw-shop-order-head">
                  <strong>{itemName(order.item, t, i18n.language)}</strong>
                  <Tag color={STATUS_COLOR[order.status]} fill="outline">
                    {t(`shop.status.${order.status}`)}
                  </Tag>
                </div>
                <span className="tw-muted">
                  {t('shop.cost', {
                    points: formatDecimal(String(order.pointsCost), i18n.language),
                  })}{' '}
                  · {formatDateTime(order.createdAt, i18n.language)}
                </span>
                {order.address && (
                  <span className="tw-shop-order-line">
                    {order.address.name} · {regionName(order.address.region, i18n.language)} ·{' '}
                    {order.address.address}
                  </span>
                )}
                {order.trackingNote && (
                  <span className="tw-shop-order-line" data-testid="shop-order-tracking">
                    {t('shop.tracking', { note: order.trackingNote })}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}
