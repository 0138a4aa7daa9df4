import {
  QUOTE_TTL_MS,
  type Quote,
  type QuoteRequest,
  quoteRequestSchema,
} from '@tradewind/contract/conversion';
import { ERROR_CODES } from '@tradewind/contract/errors';
import { ASSET_CODES, type AssetCode, QUOTE_ASSET } from '@tradewind/contract/wallet';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd-mobile';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { balancesQueryKey, useBalances } from '@/api/balances.ts';
import { ApiError } from '@tradewind/http-client/api-error';
import { formatDecimal } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { showToast } from '@/ui/toast.ts';
import { convert } from '../api/convert.ts';
import { createQuote } from '../api/create-quote.ts';
import { usePrices } from '../api/get-prices.ts';
import { AssetField } from './asset-field.tsx';
import { QuoteCard } from './quote-card.tsx';
import { FieldCaption, SwapButton } from './field-bits.tsx';

const COINS = ASSET_CODES.filter((asset) => asset !== QUOTE_ASSET);

interface Values {
  from?: AssetCode;
  to?: AssetCode;
  amount?: string;
}

interface HeldQuote {
  quote: Quote;
  /** Local time it expires: now + 10 s when received, so a skewed device clock does not matter. */
  deadline: number;
  /** The server said so (its clock wins). */
  expired: boolean;
}

/**
 * Convert: a coin to USDT or USDT to a coin (spec §5: never coin to coin), at a quoted
 * recorded price that holds for ten seconds.
 */
export function ConvertPanel() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const balances = useBalances();
  const prices = usePrices();
  const [held, setHeld] = useState<HeldQuote | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  // One key per quote: confirming the same quote again (a retry) is the same request.
  const idempotency = useIdempotencyKey();
  const { form, submitting, submit } = useFormSubmit(quoteRequestSchema, createQuote, (quote) => {
    const receivedAt = Date.now();
    setNow(receivedAt);
    setHeld({ quote, deadline: receivedAt + QUOTE_TTL_MS, expired: false });
  });
  const from: AssetCode = Form.useWatch('from', form) ?? 'BTC';
  const to: AssetCode = Form.useWatch('to', form) ?? QUOTE_ASSET;
  const coin = from === QUOTE_ASSET ? to : from;

  const available = useMemo(
    () => Object.fromEntries((balances.data?.spot ?? []).map((b) => [b.asset, b.available])),
    [balances.data],
  );
  const price = prices.data?.items.find((item) => item.asset === coin);

  useEffect(() => {
    if (!held) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [held]);
  const remainingMs = held ? Math.max(0, held.deadline - now) : 0;
  const expired = !!held && (held.expired || remainingMs === 0);

  // The pair rule lives in the controls: one side is always USDT.
  const onValuesChange = (changed: Values) => {
    if (changed.from && changed.from !== QUOTE_ASSET) form.setFieldsValue({ to: QUOTE_ASSET });
    if (changed.from === QUOTE_ASSET && form.getFieldValue('to') === QUOTE_ASSET)
      form.setFieldsValue({ to: 'BTC' });
    setHeld(null);
  };
  const swap = () => {
    form.setFieldsValue({ from: to, to: from, amount: '' });
    setHeld(null);
  };
  const requestQuote = (values: Values) =>
    submit({
      from: values.from,
      to: values.to,
      amount: values.amount?.trim() ?? '',
    } satisfies Partial<QuoteRequest>);

  const confirm = async () => {
    if (!held || expired) return;
    setConfirming(true);
    try {
      const result = await convert(held.quote.id, idempotency.keyFor({ quoteId: held.quote.id }));
      queryClient.setQueryData(balancesQueryKey, result.balances);
      showToast({
        content: t('transform.converted', {
          pay: `${result.quote.amount} ${result.quote.from}`,
          receive: `${result.quote.receive} ${result.quote.to}`,
        }),
        duration: 2000,
      });
      setHeld(null);
      form.setFieldsValue({ amount: '' });
    } catch (error) {
      // The client toasted the reason. An expired quote can only be refreshed; a used one is gone.
      if (error instanceof ApiError && error.code === ERROR_CODES.QUOTE_EXPIRED)
        setHeld((h) => (h ? { ...h, expired: true } : h));
      if (error instanceof ApiError && error.code === ERROR_CODES.QUOTE_USED) setHeld(null);
      void queryClient.invalidateQueries({ queryKey: balancesQueryKey });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <div>
      <Form
        form={form}
        layout="vertical"
        mode="card"
        initialValues={{ from: 'BTC', to: QUOTE_ASSET, amount: '' }}
        onValuesChange={onValuesChange}
        onFinish={requestQuote}
        footer={
          held ? undefined : (
            <Button block type="submit" color="primary" size="large" loading={submitting}>
              {t('transform.get_quote')}
            </Button>
          )
        }
      >
        <Form.Item
          label={
            <FieldCaption
              caption={t('transform.from')}
              note={t('transform.available', {
                amount: available[from] ? formatDecimal(available[from], i18n.language) : '–',
                asset: from,
              })}
            />
          }
        >
          <div className="tw-tf-pick">
            <Form.Item name="from" noStyle>
              <AssetField label={t('transform.from')} options={ASSET_CODES} balances={available} />
            </Form.Item>
            <Form.Item name="amount" noStyle>
              <Input
                className="tw-tf-amount"
                inputMode="decimal"
                placeholder={t('transform.amount_placeholder')}
                aria-label={t('transform.amount')}
                clearable
              />
            </Form.Item>
            <button
              type="button"
              className="tw-link tw-tf-all"
              onClick={() => form.setFieldsValue({ amount: available[from] ?? '' })}
              disabled={!available[from] || available[from] === '0'}
            >
              {t('transform.all')}
            </button>
          </div>
        </Form.Item>
        <SwapButton label={t('transform.swap')} onClick={swap} />
        <Form.Item
          label={
            <FieldCaption
              caption={t('transform.to')}
              note={t('transform.available', {
                amount: available[to] ? formatDecimal(available[to], i18n.language) : '–',
                asset: to,
              })}
            />
          }
        >
          <div className="tw-tf-pick">
            <Form.Item name="to" noStyle>
              <AssetField
                label={t('transform.to')}
                options={from === QUOTE_ASSET ? COINS : [QUOTE_ASSET]}
                balances={available}
              />
            </Form.Item>
            <span className={held ? 'tw-tf-estimate' : 'tw-tf-estimate tw-tf-estimate-empty'}>
              {held
                ? formatDecimal(held.quote.receive, i18n.language)
                : t('transform.receive_after_quote')}
            </span>
          </div>
          <p className="tw-muted tw-tf-price" aria-live="polite">
            {price?.price
              ? t('transform.indicative', {
                  coin,
                  price: formatDecimal(price.price, i18n.language),
                  source: price.sourceLabel ?? '',
                })
              : t('transform.no_price', { coin })}
          </p>
        </Form.Item>
      </Form>
      {held && (
        <QuoteCard
          quote={held.quote}
          remainingMs={remainingMs}
          expired={expired}
          confirming={confirming}
          refreshing={submitting}
          onConfirm={confirm}
          onRefresh={() => form.submit()}
        />
      )}
      <p className="tw-muted tw-tf-note">{t('transform.convert_note')}</p>
    </div>
  );
}
