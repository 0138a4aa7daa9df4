import { useQueryClient } from '@tanstack/react-query';
import {
  type CryptoWithdrawalRequest,
  WITHDRAWAL_ASSETS,
  type WithdrawalAsset,
  type WithdrawalNetwork,
  cryptoWithdrawalRequestSchema,
} from '@tradewind/contract/withdrawal';
import { Button, Form, Selector, Skeleton, TextArea } from 'antd-mobile';
import { BankcardOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';
import { balancesQueryKey } from '@/api/balances.ts';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { goSetMissingMoneyPassword } from '@/lib/money-password.ts';
import { Page } from '@/ui/page.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { useWithdrawalOptions } from './api/get-withdrawal-options.ts';
import { withdrawalsQueryKey } from './api/get-withdrawals.ts';
import { requestWithdrawal } from './api/request-withdrawal.ts';
import {
  AmountField,
  AmountSummary,
  ArrivalNotice,
  HistoryLink,
  PasswordField,
  Readiness,
  TotpField,
} from './withdrawal-parts.tsx';

interface Values {
  address?: string;
  amount?: string;
  password?: string;
  totpCode?: string;
}

const HERE = '/Withdrawal';

/** /Withdrawal: currency, network, receiving address, amount (fee on top), withdrawal password. */
export function WithdrawalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useWithdrawalOptions();
  const keys = useIdempotencyKey();
  const [params] = useSearchParams();
  // SelectCoin sends ?asset=; anything that cannot be withdrawn here starts on USDT.
  const [assetCode, setAsset] = useState<WithdrawalAsset>(
    () => WITHDRAWAL_ASSETS.find((a) => a === params.get('asset')) ?? 'USDT',
  );
  const [chosenNetwork, setNetwork] = useState<WithdrawalNetwork | undefined>();
  const asset = options.data?.assets.find((a) => a.asset === assetCode);
  const network =
    chosenNetwork && asset?.networks.includes(chosenNetwork) ? chosenNetwork : asset?.networks[0];

  const send = async (request: CryptoWithdrawalRequest) => {
    try {
      return await requestWithdrawal(request, keys.keyFor(request));
    } catch (error) {
      goSetMissingMoneyPassword(error, navigate, HERE);
      throw error;
    }
  };
  const { form, submitting, submit } = useFormSubmit(
    cryptoWithdrawalRequestSchema,
    send,
    async () => {
      keys.done();
      showToast({ content: t('withdrawal.submitted'), duration: 2000 });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: withdrawalsQueryKey }),
        queryClient.invalidateQueries({ queryKey: balancesQueryKey }),
      ]);
      navigate('/WithdrawalHistory', { replace: true });
    },
  );
  const amountText = Form.useWatch('amount', form) as string | undefined;

  const onFinish = (values: Values) =>
    submit({
      asset: assetCode,
      network,
      address: values.address ?? '',
      amount: values.amount ?? '',
      // The fee on screen: if it changed meanwhile, the server refuses rather than charging the new one.
      ...(asset ? { fee: asset.fee } : {}),
      password: values.password ?? '',
      totpCode: values.totpCode || undefined,
    });

  const chooseAsset = (value: WithdrawalAsset) => {
    setAsset(value);
    setNetwork(undefined);
    form.setFields([
      { name: 'address', errors: [] },
      { name: 'amount', value: '', errors: [] },
    ]);
  };

  return (
    <Page title={t('routes.Withdrawal')} right={<HistoryLink />}>
      {!options.data || !asset ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : (
        <>
          <Readiness options={options.data} back={HERE} />
          <section className="tw-card">
            <Form
              form={form}
              layout="vertical"
              className="tw-flat-form"
              onValuesChange={clearErrorsOnChange(form)}
              onFinish={onFinish}
              footer={<SubmitButton label={t('withdrawal.submit')} loading={submitting} />}
            >
              <Form.Item label={t('withdrawal.currency')}>
                <Selector
                  aria-label={t('withdrawal.currency')}
                  columns={3}
                  value={[assetCode]}
                  onChange={(value) => value[0] && chooseAsset(value[0])}
                  options={options.data.assets.map((a) => ({
                    label: a.asset,
                    value: a.asset,
                    disabled: !a.enabled,
                  }))}
                />
              </Form.Item>
              <Form.Item label={t('withdrawal.network')}>
                <Selector
                  aria-label={t('withdrawal.network')}
                  columns={3}
                  value={network ? [network] : []}
                  onChange={(value) => value[0] && setNetwork(value[0])}
                  options={asset.networks.map((n) => ({ label: n, value: n }))}
                />
              </Form.Item>
              <Form.Item
                name="address"
                label={t('withdrawal.address')}
                description={t(`withdrawal.address_help_${network ?? 'TRC20'}`)}
              >
                <TextArea
                  autoSize={{ minRows: 1, maxRows: 3 }}
                  maxLength={100}
                  placeholder={t('withdrawal.address_placeholder', { network: network ?? '' })}
                  style={{ '--font-size': '15px' }}
                />
              </Form.Item>
              <AmountField asset={asset} onMax={(max) => form.setFieldValue('amount', max)} />
              <AmountSummary asset={asset} amountText={amountText} />
              <PasswordField back={HERE} />
              <TotpField enabled={options.data.twoFactorEnabled} />
            </Form>
          </section>
          <ArrivalNotice hours={options.data.arrivalHours} />
          <Button block fill="outline" color="primary" onClick={() => navigate('/CardWithdrawal')}>
            <BankcardOutline /> {t('withdrawal.to_card')}
          </Button>
        </>
      )}
    </Page>
  );
}
