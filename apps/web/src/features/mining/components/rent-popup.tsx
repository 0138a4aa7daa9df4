import { useQueryClient } from '@tanstack/react-query';
import type { MiningProduct } from '@tradewind/contract/mining';
import { Button, Popup, Stepper } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { ApiError } from '@tradewind/http-client/api-error';
import { balancesQueryKey, useBalances } from '@/api/balances.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { formatDecimal, formatPercent } from '@/lib/format.ts';
import { showToast } from '@/ui/toast.ts';
import { atLeast, minQuantity, ratePercent, totalOf } from '../amounts.ts';
import { useMiningProducts } from '../api/get-products.ts';
import { miningRentalsQueryKey } from '../api/get-rentals.ts';
import { rentMiner } from '../api/rent.ts';

/**
 * Renting: choose a quantity, see what it costs, what it pays a day and in all, the
 * principal's return and the review step (or, with MINING_AUTO_APPROVE, that it starts at
 * once: the products reply says which), with the spot USDT available; then pay.
 */
export function RentPopup({
  product,
  visible,
  onClose,
}: {
  product: MiningProduct;
  visible: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const balances = useBalances();
  // Until the reply says otherwise, promise the review: it is the safe default.
  const instant = useMiningProducts().data?.autoApprove === true;
  const idempotency = useIdempotencyKey();
  const least = minQuantity(product.unitPrice, product.minInvestment);
  const [quantity, setQuantity] = useState(least);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const amount = totalOf(product.unitPrice, quantity);
  const daily = totalOf(product.dailyYieldPerUnit, quantity);
  const available = balances.data?.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
  const enough = atLeast(available, amount);
  const usdt = (value: string) => `${formatDecimal(value, lang)} USDT`;
  const totalProfit = totalOf(daily, product.periodDays);

  const submit = async () => {
    setError(null);
    setBusy(true);
    const request = { productId: product.id, quantity, amount };
    try {
      const rental = await rentMiner(request, idempotency.keyFor(request));
      idempotency.done();
      showToast({
        content: t(rental.status === 'active' ? 'mining.rented_instant' : 'mining.rented'),
        duration: 2000,
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: balancesQueryKey }),
        queryClient.invalidateQueries({ queryKey: miningRentalsQueryKey }),
      ]);
      onClose();
      navigate(`/MiningDetail?id=${rental.id}`);
    } catch (caught) {
      // A 422 names the field; other refusals were already shown as a toast by the client.
      if (caught instanceof ApiError && caught.isValidation && caught.errors)
        setError(Object.values(caught.errors)[0]?.[0] ?? caught.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="tw-mining-popup"
      destroyOnClose
    >
      <h2 className="tw-mining-popup-title">{t('mining.rent_title', { name: product.name })}</h2>
      <div className="tw-mining-kv">
        <span>{t('mining.unit_price')}</span>
        <strong>{usdt(product.unitPrice)}</strong>
      </div>
      <div className="tw-mining-kv">
        <span id="rent-quantity-label">{t('mining.quantity')}</span>
        <Stepper
          aria-labelledby="rent-quantity-label"
          min={1}
          max={product.maxQuantity}
          digits={0}
          value={quantity}
          onChange={(value) => {
            setError(null);
            setQuantity(Math.max(1, Math.min(product.maxQuantity, Math.trunc(Number(value) || 1))));
          }}
        />
      </div>
      <p className="tw-muted tw-mining-hint">
        {t('mining.quantity_hint', {
          min: formatDecimal(product.minInvestment, lang),
          max: product.maxQuantity,
        })}
      </p>
      <div className="tw-mining-kv">
        <span>{t('mining.pay_amount')}</span>
        <strong data-testid="rent-amount">{usdt(amount)}</strong>
      </div>
      <div className="tw-mining-kv">
        <span>{t('mining.daily_yield')}</span>
        <span>
          {usdt(daily)} ({formatPercent(ratePercent(product.dailyRate), lang)})
        </span>
      </div>
      <div className="tw-mining-kv">
        <span>{t('mining.total_profit')}</span>
        <span>{usdt(totalProfit)}</span>
      </div>
      <div className="tw-mining-kv">
        <span>{t('mining.available')}</span>
        <span className={enough ? undefined : 'tw-mining-short'}>{usdt(available)}</span>
      </div>
      <p className="tw-mining-disclosure">
        {t(instant ? 'mining.rent_disclosure_instant' : 'mining.rent_disclosure', {
          days: product.periodDays,
          amount: usdt(amount),
        })}
      </p>
      {error && (
        <p role="alert" className="tw-mining-error">
          {error}
        </p>
      )}
      <Button block color="primary" size="large" loading={busy} disabled={busy} onClick={submit}>
        {t('mining.pay', { amount: usdt(amount) })}
      </Button>
    </Popup>
  );
}
