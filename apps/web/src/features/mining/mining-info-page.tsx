import { ERROR_CODES } from '@tradewind/contract/errors';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { formatDecimal } from '@/lib/format.ts';
import { isNotFound } from '@tradewind/http-client/api-error';
import { useProductSwitches } from '@/api/product-switches.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { useMiningProduct } from './api/get-products.ts';
import { ProductTerms } from './components/product-terms.tsx';
import { RentPopup } from './components/rent-popup.tsx';
import './mining.css';

/** /MiningInfo?id=: a miner's description with its costs and risks (plain text, never HTML), its terms, and renting. */
export function MiningInfoPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d{1,18}$/.test(raw) ? raw : null;
  const product = useMiningProduct(id);
  const [renting, setRenting] = useState(false);
  const miningOn = useProductSwitches().data?.mining !== false;
  const data = product.data;
  return (
    <Page title={t('routes.MiningInfo')} backTo="/Mining">
      {product.isPending && id ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={8} animated />
        </div>
      ) : !data &&
        product.isError &&
        !isNotFound(product.error, ERROR_CODES.MINING_PRODUCT_NOT_FOUND) ? (
        <div className="tw-card">
          <LoadFailed
            error={product.error}
            onRetry={() => void product.refetch()}
            retrying={product.isFetching}
          />
        </div>
      ) : !data ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('mining.not_found')} description="" />
        </div>
      ) : (
        <>
          <section className="tw-card">
            <div className="tw-mining-card-head">
              <h2>{data.name}</h2>
              <span className="tw-mining-price">
                {t('mining.unit_price_short', {
                  price: formatDecimal(data.unitPrice, i18n.language),
                })}
              </span>
            </div>
            <ProductTerms product={data} />
          </section>
          <section className="tw-card tw-mining-description" aria-label={t('mining.description')}>
            <h3>{t('mining.description')}</h3>
            {data.description.split(/\n{2,}/).map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
          {!miningOn && <p className="tw-mining-error">{t('mining.off')}</p>}
          {data.enabled && miningOn && (
            <Button block color="primary" size="large" onClick={() => setRenting(true)}>
              {t('mining.rent')}
            </Button>
          )}
          {renting && <RentPopup product={data} visible onClose={() => setRenting(false)} />}
        </>
      )}
    </Page>
  );
}
