import {
  type TransferRequest,
  type Wallet,
  transferRequestSchema,
} from '@tradewind/contract/wallet';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { balancesQueryKey, useBalances } from '@/api/balances.ts';
import { formatDecimal } from '@/lib/format.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { showToast } from '@/ui/toast.ts';
import { transfer } from '../api/transfer.ts';
import { FieldCaption, SwapButton } from './field-bits.tsx';

interface Values {
  from?: Wallet;
  to?: Wallet;
  amount?: string;
}

/** Shows an account's name; the value is set by the swap button, not typed. */
function AccountName({ value, label }: { value?: Wallet; label: string }) {
  const { t } = useTranslation();
  return (
    <div
      className="tw-tf-account"
      aria-label={`${label}: ${value ? t(`transform.wallet_${value}`) : ''}`}
    >
      {value ? t(`transform.wallet_${value}`) : ''}
    </div>
  );
}

/** Transfer: USDT between your spot and futures accounts (spec §5: they must differ). */
export function TransferPanel() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const balances = useBalances();
  const idempotency = useIdempotencyKey();
  // After a success the amount is cleared for the next transfer.
  const [done, setDone] = useState(0);
  const { form, submitting, submit } = useFormSubmit(
    transferRequestSchema,
    (request: TransferRequest) => transfer(request, idempotency.keyFor(request)),
    (result) => {
      idempotency.done();
      queryClient.setQueryData(balancesQueryKey, result.balances);
      setDone((n) => n + 1);
      showToast({ content: t('transform.transferred'), duration: 2000 });
    },
  );
  useEffect(() => {
    if (done > 0) form.setFieldsValue({ amount: '' });
  }, [done, form]);
  const from: Wallet = Form.useWatch('from', form) ?? 'spot';
  const to: Wallet = Form.useWatch('to', form) ?? 'futures';
  const available =
    from === 'spot'
      ? balances.data?.spot.find((b) => b.asset === 'USDT')?.available
      : balances.data?.futures.available;

  const swap = () => form.setFieldsValue({ from: to, to: from });
  const onFinish = (values: Values) =>
    submit({
      from: values.from,
      to: values.to,
      asset: 'USDT',
      amount: values.amount?.trim() ?? '',
    });

  return (
    <Form
      form={form}
      layout="vertical"
      mode="card"
      initialValues={{ from: 'spot', to: 'futures', amount: '' }}
      onFinish={onFinish}
      footer={
        <Button block type="submit" color="primary" size="large" loading={submitting}>
          {t('transform.confirm_transfer')}
        </Button>
      }
    >
      <Form.Item name="from" label={t('transform.from')}>
        <AccountName label={t('transform.from')} />
      </Form.Item>
      <SwapButton label={t('transform.swap')} onClick={swap} />
      <Form.Item name="to" label={t('transform.to')}>
        <AccountName label={t('transform.to')} />
      </Form.Item>
      <Form.Item
        label={
          <FieldCaption
            caption={t('transform.amount')}
            note={t('transform.available', {
              amount: available ? formatDecimal(available, i18n.language) : '–',
              asset: 'USDT',
            })}
          />
        }
      >
        <div className="tw-tf-pick">
          <span className="tw-tf-asset-code" aria-hidden>
            USDT
          </span>
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
            onClick={() => form.setFieldsValue({ amount: available ?? '' })}
            disabled={!available || available === '0'}
          >
            {t('transform.all')}
          </button>
        </div>
      </Form.Item>
    </Form>
  );
}
