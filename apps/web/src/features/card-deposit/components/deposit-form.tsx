import {
  type CardDeposit,
  type CardDepositConfig,
  type CardDepositRequest,
  cardDepositRequestSchema,
  quoteCardDeposit,
} from '@tradewind/contract/card-deposit';
import { Form, Input } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { ImageUpload } from '@/ui/image-upload.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { createCardDeposit } from '../api/create-deposit.ts';

interface Values {
  amount?: string;
  screenshotFileId?: string;
}

function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Amount and payment screenshot, with the fee and the amount to be credited worked out as
 * the user types (the shared rule: fee rounded up). One Idempotency-Key per submission: a
 * retry of the same amount and screenshot reuses it, so a lost reply never records twice.
 */
export function DepositForm({
  config,
  balance,
  onCreated,
}: {
  config: CardDepositConfig;
  balance: string | undefined;
  onCreated: (deposit: CardDeposit) => void;
}) {
  const { t } = useTranslation();
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const send = (body: CardDepositRequest) => {
    const text = JSON.stringify(body);
    if (attempt.current?.body !== text) attempt.current = { body: text, key: randomKey() };
    return createCardDeposit(body, attempt.current.key);
  };
  // After a success the parent remounts this form (a new key): empty fields, a new key for the next one.
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    cardDepositRequestSchema,
    send,
    onCreated,
  );

  const onFinish = (values: Values) =>
    submit({ amount: (values.amount ?? '').trim(), screenshotFileId: values.screenshotFileId });

  return (
    <section className="tw-card" style={{ padding: '16px 0 8px' }} aria-labelledby="report-title">
      <h2 id="report-title" className="tw-step" style={{ padding: '0 16px' }}>
        <span className="tw-step-number">2</span>
        {t('card_deposit.report_title')}
      </h2>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        onValuesChange={clearEdited}
        footer={<SubmitButton label={t('card_deposit.submit')} loading={submitting} />}
        style={{ '--border-top': 'none', '--border-bottom': 'none' }}
      >
        <Form.Item
          name="amount"
          label={t('card_deposit.amount')}
          extra={<span className="tw-muted">USDT</span>}
          description={t('card_deposit.limits', { min: config.minAmount, max: config.maxAmount })}
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('card_deposit.amount_placeholder')}
            clearable
          />
        </Form.Item>
        <div className="tw-quote" aria-live="polite">
          <div className="tw-quote-row">
            <span className="tw-muted">{t('card_deposit.balance')}</span>
            <span>{balance ?? '--'} USDT</span>
          </div>
          <Form.Subscribe to={['amount']}>
            {({ amount }: Values) => {
              const quote = quoteCardDeposit(amount ?? '', config.feeBps);
              const ok = quote !== undefined && quote.actualMinor > 0n;
              return (
                <>
                  <div className="tw-quote-row">
                    <span className="tw-muted">
                      {t('card_deposit.fee_rate', { rate: (config.feeBps / 100).toString() })}
                    </span>
                    <span data-testid="fee">{ok ? quote.fee : '--'} USDT</span>
                  </div>
                  <div className="tw-quote-row">
                    <span className="tw-muted">{t('card_deposit.actual_amount')}</span>
                    <strong data-testid="actual">{ok ? quote.actualAmount : '--'} USDT</strong>
                  </div>
                </>
              );
            }}
          </Form.Subscribe>
        </div>
        <Form.Item name="screenshotFileId" label={t('card_deposit.screenshot')}>
          <ImageUpload
            purpose="card_deposit"
            name="screenshot"
            label={t('card_deposit.screenshot')}
            hint={t('card_deposit.screenshot_hint')}
          />
        </Form.Item>
      </Form>
    </section>
  );
}
