import { useQueryClient } from '@tanstack/react-query';
import {
  LOAN_UNSETTLED_STATUSES,
  type Loan,
  type LoanProduct,
  interestOf,
  loanApplyRequestSchema,
} from '@tradewind/contract/loans';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ErrorBlock, Form, Input, Selector, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { formatDecimal, formatPercent } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { useProductSwitches } from '@/api/product-switches.ts';
import { ImageUpload } from '@/ui/image-upload.tsx';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { ProductOff } from '@/ui/product-off.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { applyForLoan, loansQueryKey, useLoanProducts, useLoans } from './api/loans.ts';
import { ratePercent } from './rates.ts';
import './loans.css';

interface LoanFormValues {
  amount?: string;
  periodDays?: number[];
  frontFileId?: string;
  backFileId?: string;
  holdingFileId?: string;
}

/**
 * /Loan: assisted loan products and the application (amount, period, ID photos). What would
 * refuse the application is said before the form, not after three photos: the product
 * switched off ("Loan feature under development"), or an unsettled loan (spec §5), with a
 * link to it.
 */
export function LoanPage() {
  const { t } = useTranslation();
  const products = useLoanProducts();
  const switches = useProductSwitches();
  const loans = useLoans();
  const [chosen, setChosen] = useState<string | null>(null);
  const items = products.data?.items ?? [];
  const product = items.find((p) => p.id === chosen) ?? items[0];
  const unsettled = loans.data?.items.find((loan) => LOAN_UNSETTLED_STATUSES.includes(loan.status));
  return (
    <Page
      title={t('routes.Loan')}
      right={
        <Link to="/LoansHistory" className="tw-link tw-loan-his-link">
          {t('routes.LoansHistory')}
        </Link>
      }
    >
      {switches.data?.loans === false ? (
        <ProductOff message={t('loans.off')} />
      ) : products.isPending || switches.isPending || loans.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : !product && products.isError ? (
        <div className="tw-card">
          <LoadFailed
            error={products.error}
            onRetry={() => void products.refetch()}
            retrying={products.isFetching}
          />
        </div>
      ) : !product ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('loans.no_products')} description="" />
        </div>
      ) : (
        <>
          {items.length > 1 && (
            <Selector
              className="tw-loan-products"
              aria-label={t('loans.product')}
              columns={items.length}
              value={[product.id]}
              onChange={(value) => value[0] && setChosen(value[0])}
              options={items.map((p) => ({ label: p.name, value: p.id }))}
            />
          )}
          {unsettled && <UnsettledLoan loan={unsettled} />}
          <ProductTerms product={product} />
          {!unsettled && <LoanForm key={product.id} product={product} />}
        </>
      )}
    </Page>
  );
}

/** The loan that blocks a new application, said up front with a way to it. */
function UnsettledLoan({ loan }: { loan: Loan }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="tw-card tw-loan-unsettled" role="status" data-testid="loan-unsettled">
      <h2 className="tw-loan-title">{t('loans.unsettled')}</h2>
      <p className="tw-muted">
        {t('loans.unsettled_hint', {
          amount: formatDecimal(loan.amount, i18n.language),
          status: t(`loans.status.${loan.status}`),
        })}
      </p>
      <Link to={`/LoansHistory?id=${loan.id}`} className="tw-link">
        {t('loans.view_loan')}
      </Link>
    </section>
  );
}

function ProductTerms({ product }: { product: LoanProduct }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <section className="tw-card" aria-label={product.name} data-product-id={product.id}>
      <h2 className="tw-loan-title">{product.name}</h2>
      <dl className="tw-loan-terms">
        <div>
          <dt>{t('loans.amount_range')}</dt>
          <dd>
            {formatDecimal(product.minAmount, lang)} – {formatDecimal(product.maxAmount, lang)} USDT
          </dd>
        </div>
        <div>
          <dt>{t('loans.daily_rate')}</dt>
          <dd>{formatPercent(ratePercent(product.dailyRate), lang)}</dd>
        </div>
        <div>
          <dt>{t('loans.method')}</dt>
          <dd>{t(`loans.methods.${product.method}`)}</dd>
        </div>
        <div>
          <dt>{t('loans.institution')}</dt>
          <dd>{product.institution}</dd>
        </div>
      </dl>
      <p className="tw-loan-description">{product.description}</p>
    </section>
  );
}

function LoanForm({ product }: { product: LoanProduct }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onDone = (loan: Loan) => {
    void queryClient.invalidateQueries({ queryKey: loansQueryKey });
    showToast({
      content: t('loans.applied', { amount: formatDecimal(loan.amount, i18n.language) }),
      duration: 2000,
    });
    navigate('/LoansHistory');
  };
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    loanApplyRequestSchema,
    applyForLoan,
    onDone,
  );
  const shortest = product.periods[0] ?? 0;
  const onFinish = (values: LoanFormValues) =>
    submit({
      productId: product.id,
      amount: values.amount ?? '',
      periodDays: values.periodDays?.[0],
      frontFileId: values.frontFileId,
      backFileId: values.backFileId,
      holdingFileId: values.holdingFileId,
    });
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ periodDays: [shortest] }}
      onFinish={onFinish}
      onValuesChange={clearEdited}
      footer={<SubmitButton label={t('loans.apply')} loading={submitting} />}
      style={{ '--border-top': 'none', '--border-bottom': 'none' }}
    >
      <Form.Header>{t('loans.application')}</Form.Header>
      <Form.Item name="amount" label={t('loans.amount')} extra="USDT">
        <Input
          name="amount"
          inputMode="decimal"
          placeholder={t('loans.amount_placeholder', {
            min: product.minAmount,
            max: product.maxAmount,
          })}
          clearable
        />
      </Form.Item>
      <Form.Item name="periodDays" label={t('loans.period')}>
        <Selector
          columns={3}
          options={product.periods.map((days) => ({
            label: t('loans.days', { count: days }),
            value: days,
          }))}
        />
      </Form.Item>
      <Form.Subscribe to={['amount', 'periodDays']}>
        {({ amount, periodDays }: LoanFormValues) => (
          <Quote product={product} amount={amount} days={periodDays?.[0]} />
        )}
      </Form.Subscribe>
      <Form.Header>{t('loans.photos')}</Form.Header>
      <Form.Item name="frontFileId" label={t('loans.front')}>
        <ImageUpload
          purpose="loan"
          name="front"
          label={t('loans.front')}
          hint={t('loans.front_hint')}
        />
      </Form.Item>
      <Form.Item name="backFileId" label={t('loans.back')}>
        <ImageUpload
          purpose="loan"
          name="back"
          label={t('loans.back')}
          hint={t('loans.back_hint')}
        />
      </Form.Item>
      <Form.Item name="holdingFileId" label={t('loans.holding')}>
        <ImageUpload
          purpose="loan"
          name="holding"
          label={t('loans.holding')}
          hint={t('loans.holding_hint')}
        />
      </Form.Item>
      <p className="tw-muted" style={{ margin: '4px 16px 0' }}>
        {t('loans.privacy')}
      </p>
    </Form>
  );
}

/** Interest over the chosen period and the total due at maturity, as the server computes them. */
function Quote({
  product,
  amount,
  days,
}: {
  product: LoanProduct;
  amount?: string;
  days?: number;
}) {
  const { t, i18n } = useTranslation();
  const minor = amount ? parseAmount(amount.trim(), 6) : undefined;
  const ppm = Math.round(Number(product.dailyRate) * 1_000_000);
  const interest = minor !== undefined && days ? interestOf(minor, ppm, days) : undefined;
  return (
    <dl className="tw-loan-quote" aria-live="polite">
      <div>
        <dt>{t('loans.interest')}</dt>
        <dd data-testid="loan-interest">
          {interest === undefined
            ? '—'
            : `${formatDecimal(formatAmount(interest, 6), i18n.language)} USDT`}
        </dd>
      </div>
      <div>
        <dt>{t('loans.total_at_maturity')}</dt>
        <dd>
          {interest === undefined || minor === undefined
            ? '—'
            : `${formatDecimal(formatAmount(minor + interest, 6), i18n.language)} USDT`}
        </dd>
      </div>
    </dl>
  );
}
