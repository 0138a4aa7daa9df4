import type { DeliveryAddress, ShopItem } from '@tradewind/contract/shop';
import { Button, Popup, Skeleton } from 'antd-mobile';
import { CouponOutline, GiftOutline, ShopbagOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useProductSwitches } from '@/api/product-switches.ts';
import { formatDecimal } from '@/lib/format.ts';
import { useTranslation } from '@/lib/i18n.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { confirm } from '@/ui/confirm.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { ProductOff } from '@/ui/product-off.tsx';
import { useShop } from './api/get-shop.ts';
import { usePurchase } from './api/purchase.ts';
import { AddressBook } from './components/address-book.tsx';
import { itemName } from './item-name.ts';
import './shop.css';

/**
 * /Shop, the points shop: reward items (USDT from the reward budget) and physical items, which
 * are shipped to an address from the user's address book.
 */
export function ShopPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const shop = useShop();
  const switches = useProductSwitches();
  const buy = usePurchase();
  const keys = useIdempotencyKey();
  const [physical, setPhysical] = useState<ShopItem | null>(null);
  const [address, setAddress] = useState<DeliveryAddress | null>(null);
  const number = (value: number) => formatDecimal(String(value), i18n.language);

  const send = (item: ShopItem, addressId?: string) => {
    const body = { item: item.id, ...(addressId ? { addressId } : {}) };
    buy.mutate(
      { body, idempotencyKey: keys.keyFor(body) },
      {
        onSuccess: () => {
          keys.done();
          setPhysical(null);
          navigate(
            `/Success?title=${item.kind === 'physical' ? 'sent' : 'operation'}&next=/ShopOrders`,
          );
        },
        onError: () => keys.done(),
      },
    );
  };

  const onBuy = async (item: ShopItem) => {
    if (item.kind === 'physical') {
      setPhysical(item);
      return;
    }
    const ok = await confirm({
      content: t('shop.confirm_reward', {
        points: number(item.pointsCost),
        amount: formatDecimal(item.amount ?? '0', i18n.language),
        asset: item.asset,
      }),
    });
    if (ok) send(item);
  };

  const off = shop.data?.enabled === false || switches.data?.shop === false;
  return (
    <Page
      title={t('routes.Shop')}
      backTo="/Rewards"
      right={
        <Link to="/ShopOrders" className="tw-link" data-testid="shop-orders-link">
          {t('routes.ShopOrders')}
        </Link>
      }
    >
      {off ? (
        <ProductOff message={t('errors.SHOP_UNAVAILABLE')} />
      ) : shop.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : shop.isError ? (
        <div className="tw-card">
          <LoadFailed
            error={shop.error}
            onRetry={() => void shop.refetch()}
            retrying={shop.isFetching}
          />
        </div>
      ) : (
        <>
          <section className="tw-card tw-shop-points" aria-labelledby="shop-points">
            <h2 id="shop-points" className="tw-muted">
              {t('rewards.my_points')}
            </h2>
            <strong data-testid="shop-points">{number(shop.data.points)}</strong>
          </section>
          <ul className="tw-shop-items">
            {shop.data.items.map((item) => (
              <li
                key={item.id}
                className="tw-card tw-shop-item"
                data-testid={`shop-item-${item.id}`}
              >
                <span className="tw-shop-item-icon" aria-hidden>
                  {item.kind === 'reward' ? (
                    <CouponOutline />
                  ) : item.id === 'mug' ? (
                    <GiftOutline />
                  ) : (
                    <ShopbagOutline />
                  )}
                </span>
                <strong className="tw-shop-item-name">{itemName(item.id, t, i18n.language)}</strong>
                <span className="tw-shop-item-kind tw-muted">
                  {t(item.kind === 'reward' ? 'shop.kind_reward' : 'shop.kind_physical')}
                </span>
                <span className="tw-shop-item-cost">
                  {t('shop.cost', { points: number(item.pointsCost) })}
                </span>
                <Button
                  size="small"
                  color="primary"
                  block
                  disabled={shop.data.points < item.pointsCost}
                  loading={buy.isPending && buy.variables?.body.item === item.id}
                  onClick={() => void onBuy(item)}
                  data-testid={`shop-buy-${item.id}`}
                >
                  {shop.data.points < item.pointsCost ? t('shop.not_enough') : t('shop.buy')}
                </Button>
              </li>
            ))}
          </ul>
          <p className="tw-muted tw-shop-note">
            <Link to="/Address" className="tw-link">
              {t('routes.Address')}
            </Link>
          </p>
        </>
      )}
      <Popup
        visible={physical !== null}
        onMaskClick={() => setPhysical(null)}
        onClose={() => setPhysical(null)}
        bodyClassName="tw-shop-popup"
      >
        {physical && (
          <div data-testid="shop-checkout">
            <h2 className="tw-shop-popup-title">
              {t('shop.deliver_to', { item: itemName(physical.id, t, i18n.language) })}
            </h2>
            <AddressBook chosen={address?.id ?? null} onChoose={setAddress} />
            <Button
              block
              color="primary"
              size="large"
              className="tw-shop-confirm"
              disabled={!address}
              loading={buy.isPending}
              onClick={() => {
                if (address) send(physical, address.id);
              }}
              data-testid="shop-confirm"
            >
              {t('shop.confirm_physical', { points: number(physical.pointsCost) })}
            </Button>
          </div>
        )}
      </Popup>
    </Page>
  );
}
