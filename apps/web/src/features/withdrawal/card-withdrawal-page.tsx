import { useQueryClient } from '@tanstack/react-query';
import {
  CARD_WITHDRAWAL_ASSET,
  type CardWithdrawalRequest,
  cardWithdrawalRequestSchema,
} from '@tradewind/contract/withdrawal';
import { Button, ErrorBlock, Form, Radio, Skeleton, Space } from 'antd-mobile';
import { BankcardOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { balancesQueryKey } from '@/api/balances.ts';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { goSetMissingMoneyPassword } from '@/lib/money-password.ts';
import { Page } from '@/ui/page.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { useWithdrawalOptions } from './api/get-withdrawal-options.ts';
import { withdrawalsQueryKey } from './api/get-withdrawals.ts';
import { requestCardWithdrawal } from './api/request-card-withdrawal.ts';
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
  cardId?: string;
  amount?: string;
  password?: string;
  totpCode?: string;
}

const HERE = '/CardWithdrawal';

/** /CardWithdrawal: USDT to a linked bank card; without a card, the way to link one (spec §5). */
export function CardWithdrawalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useWithdrawalOptions();
  const keys = useIdempotencyKey();
  const asset = options.data?.assets.find((a) => a.asset === CARD_WITHDRAWAL_ASSET);
  const cards = options.data?.cards ?? [];

  const send = async (request: CardWithdrawalRequest) => {
    try {
      return await requestCardWithdrawal(request, keys.keyFor(request));
    } catch (error) {
      goSetMissingMoneyPassword(error, navigate, HERE);
      throw error;
    }
  };
  const { form, submitting, submit } = useFormSubmit(
    cardWithdrawalRequestSchema,
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
      cardId: values.cardId ?? cards[0]?.id ?? '',
      amount: values.amount ?? '',
      ...(asset ? { fee: asset.fee } : {}),
      password: values.password ?? '',
      totpCode: values.totpCode || undefined,
    });

  return (
    <Page title={t('routes.CardWithdrawal')} right={<HistoryLink />}>
      {!options.data || !asset ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : cards.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<BankcardOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('errors.BANK_CARD_REQUIRED')}
            description={t('withdrawal.card_needed')}
          >
            <Button
              color="primary"
              onClick={() => navigate(`/AddCard?back=${encodeURIComponent(HERE)}`)}
            >
              {t('routes.AddCard')}
            </Button>
          </ErrorBlock>
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
              initialValues={{ cardId: cards[0]?.id }}
              footer={<SubmitButton label={t('withdrawal.submit')} loading={submitting} />}
            >
              <Form.Item
                name="cardId"
                label={t('withdrawal.card')}
                extra={
                  <Button
                    size="small"
                    fill="none"
                    color="primary"
                    onClick={() => navigate('/Card')}
                  >
                    {t('withdrawal.manage_cards')}
                  </Button>
                }
              >
                <Radio.Group>
                  <Space direction="vertical" block>
                    {cards.map((card) => (
                      <Radio key={card.id} value={card.id} block>
                        <span style={{ overflowWrap: 'anywhere' }}>
                          {card.bankName} {card.accountMasked} · {card.holderName}
                        </span>
                      </Radio>
                    ))}
                  </Space>
                </Radio.Group>
              </Form.Item>
              <AmountField asset={asset} onMax={(max) => form.setFieldValue('amount', max)} />
              <AmountSummary asset={asset} amountText={amountText} />
              <PasswordField back={HERE} />
              <TotpField enabled={options.data.twoFactorEnabled} />
            </Form>
          </section>
          <ArrivalNotice hours={options.data.arrivalHours} />
        </>
      )}
    </Page>
  );
}
