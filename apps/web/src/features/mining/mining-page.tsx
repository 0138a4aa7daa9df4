import type { MiningProduct } from '@tradewind/contract/mining';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { formatDecimal } from '@/lib/format.ts';
import { useProductSwitches } from '@/api/product-switches.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { ProductOff } from '@/ui/product-off.tsx';
import { useMiningProducts } from './api/get-products.ts';
import { ProductTerms } from './components/product-terms.tsx';
import { RentPopup } from './components/rent-popup.tsx';
import './mining.css';

/** /Mining (tab): miners for rent with their terms; rent, read the full terms, or see my miners. */
export function MiningPage() {
  const { t } = useTranslation();
  const products = useMiningProducts();
  const switches = useProductSwitches();
  const [renting, setRenting] = useState<MiningProduct | null>(null);
  const items = products.data?.items ?? [];
  return (
    <Page
      title={t('routes.Mining')}
      noBack
      right={
        <Link to="/MiningHis" className="tw-link tw-mining-his-link">
          {t('routes.MiningHis')}
        </Link>
      }
    >
      <p className="tw-mining-intro">{t('mining.intro')}</p>
      {switches.data?.mining === false ? (
        <ProductOff message={t('mining.off')} />
      ) : products.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : products.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={products.error}
            onRetry={() => void products.refetch()}
            retrying={products.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('mining.no_products')} description="" />
        </div>
      ) : (
        items.map((product) => (
          <ProductCard key={product.id} product={product} onRent={() => setRenting(product)} />
        ))
      )}
      {renting && <RentPopup product={renting} visible onClose={() => setRenting(null)} />}
    </Page>
  );
}

function ProductCard({ product, onRent }: { product: MiningProduct; onRent: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section
      className="tw-card tw-mining-card"
      aria-labelledby={`miner-${product.id}`}
      data-product-id={product.id}
    >
      <div className="tw-mining-card-head">
        <h2 id={`miner-${product.id}`}>{product.name}</h2>
        <span className="tw-mining-price">
          {t('mining.unit_price_short', { price: formatDecimal(product.unitPrice, i18n.language) })}
        </span>
      </div>
      <ProductTerms product={product} />
      <div className="tw-mining-actions">
        <Link to={`/MiningInfo?id=${product.id}`} className="tw-link">
          {t('mining.terms_link')}
        </Link>
        <Button color="primary" size="small" onClick={onRent}>
          {t('mining.rent')}
        </Button>
      </div>
    </section>
  );
}
