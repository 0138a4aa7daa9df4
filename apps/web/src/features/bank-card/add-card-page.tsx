import { useQueryClient } from '@tanstack/react-query';
import { addBankCardRequestSchema } from '@tradewind/contract/bank-card';
import { Form, Input } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { useBackTarget } from '@/lib/navigation.ts';
import { Page } from '@/ui/page.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { addBankCard } from './api/add-bank-card.ts';
import { bankCardsQueryKey } from './api/get-bank-cards.ts';

const FIELDS = [
  { name: 'bankName', autoComplete: 'organization' },
  { name: 'accountNumber', autoComplete: 'off' },
  { name: 'branchName', autoComplete: 'off' },
  { name: 'branchCode', autoComplete: 'off' },
  { name: 'holderName', autoComplete: 'name' },
] as const;

type Values = Partial<Record<(typeof FIELDS)[number]['name'], string>>;

/** /AddCard: bank name, account number, branch name and code, cardholder (spec §3 Bank card). */
export function AddCardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const back = useBackTarget('/Card');
  const { form, submitting, submit } = useFormSubmit(
    addBankCardRequestSchema,
    addBankCard,
    async () => {
      showToast({ content: t('bank_card.added'), duration: 2000 });
      await queryClient.invalidateQueries({ queryKey: bankCardsQueryKey });
      navigate(back, { replace: true });
    },
  );

  const onFinish = (values: Values) =>
    submit(Object.fromEntries(FIELDS.map(({ name }) => [name, values[name] ?? ''])));

  return (
    <Page title={t('routes.AddCard')} backTo={back}>
      <div className="tw-card">
        <p className="tw-muted" style={{ marginTop: 0 }}>
          {t('bank_card.add_note')}
        </p>
        <Form
          form={form}
          layout="vertical"
          className="tw-flat-form"
          onValuesChange={clearErrorsOnChange(form)}
          onFinish={onFinish}
          footer={<SubmitButton label={t('bank_card.add_submit')} loading={submitting} />}
        >
          {FIELDS.map((field) => (
            <Form.Item key={field.name} name={field.name} label={t(`bank_card.${field.name}`)}>
              <Input
                autoComplete={field.autoComplete}
                placeholder={t(`bank_card.${field.name}_placeholder`)}
                clearable
              />
            </Form.Item>
          ))}
        </Form>
      </div>
    </Page>
  );
}
