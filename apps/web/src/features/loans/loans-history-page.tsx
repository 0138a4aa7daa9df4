import { useQueryClient } from '@tanstack/react-query';
import type { Loan, LoanStatus } from '@tradewind/contract/loans';
import { Button, Skeleton, Tag } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { formatDateTime, formatDecimal, formatPercent } from '@/lib/format.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { confirm } from '@/ui/confirm.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { loansQueryKey, repayLoan, useLoans } from './api/loans.ts';
import { ratePercent } from './rates.ts';
import './loans.css';

const COLOR: Record<LoanStatus, 'warning' | 'primary' | 'success' | 'danger' | 'default'> = {
  under_review: 'warning',
  pending_disbursement: 'warning',
  disbursed: 'primary',
  repaid: 'success',
  rejected: 'default',
  overdue: 'danger',
};

/** /LoansHistory: my loans with their terms, approved amount, overdue days and interest; repay an open one. */
export function LoansHistoryPage() {
  const { t } = useTranslation();
  const loans = useLoans();
  const [params] = useSearchParams();
  const focused = params.get('id');
  const items = loans.data?.items ?? [];
  return (
    <Page title={t('routes.LoansHistory')} backTo="/Loan">
      {loans.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : loans.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={loans.error}
            title={t('loans.load_failed')}
            onRetry={() => void loans.refetch()}
            retrying={loans.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <p className="tw-muted">{t('loans.no_loans')}</p>
          <Link to="/Loan" className="tw-link">
            {t('loans.browse')}
          </Link>
        </div>
      ) : (
        items.map((loan) => <LoanCard key={loan.id} loan={loan} focused={loan.id === focused} />)
      )}
    </Page>
  );
}

/** `focused`: the loan a link named (`/LoansHistory?id=…`, e.g. from /Loan's unsettled notice). */
function LoanCard({ loan, focused }: { loan: Loan; focused: boolean }) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  const lang = i18n.language;
  const usdt = (value: string) => `${formatDecimal(value, lang)} USDT`;
  const open = loan.status === 'disbursed' || loan.status === 'overdue';
  const rows: [string, string][] = [
    [t('loans.amount'), usdt(loan.amount)],
    [t('loans.approved_amount'), loan.approvedAmount === null ? '—' : usdt(loan.approvedAmount)],
    [t('loans.period'), t('loans.days', { count: loan.periodDays })],
    [t('loans.daily_rate'), formatPercent(ratePercent(loan.dailyRate), lang)],
    [t('loans.interest'), usdt(loan.interest)],
    ...(loan.disbursedAt
      ? ([[t('loans.interest_to_date'), usdt(loan.interestToDate)]] as [string, string][])
      : []),
    [t('loans.method'), t(`loans.methods.${loan.method}`)],
    [t('loans.institution'), loan.institution],
    [t('loans.overdue_days'), String(loan.overdueDays)],
    [t('loans.overdue_interest'), usdt(loan.overdueInterest)],
  ];
  if (loan.dueAt) rows.push([t('loans.due_at'), formatDateTime(loan.dueAt, lang)]);
  if (loan.repaidAmount !== null) rows.push([t('loans.repaid_amount'), usdt(loan.repaidAmount)]);
  return (
    <section
      ref={ref}
      className={focused ? 'tw-card tw-loan-card tw-loan-highlight' : 'tw-card tw-loan-card'}
      aria-label={loan.productName}
      data-loan-id={loan.id}
      data-status={loan.status}
    >
      <div className="tw-loan-card-head">
        <h2 className="tw-loan-title">{loan.productName}</h2>
        <Tag color={COLOR[loan.status]} fill="outline" data-status={loan.status}>
          {t(`loans.status.${loan.status}`)}
        </Tag>
      </div>
      <dl className="tw-loan-rows">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {loan.reason && (
        <p className="tw-loan-reason">{t('loans.reason', { reason: loan.reason })}</p>
      )}
      <p className="tw-muted tw-loan-time">{formatDateTime(loan.createdAt, lang)}</p>
      {open && <RepayBar loan={loan} />}
    </section>
  );
}

function RepayBar({ loan }: { loan: Loan }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  const [busy, setBusy] = useState(false);
  const total = `${formatDecimal(loan.dueNow, i18n.language)} USDT`;
  const onRepay = async () => {
    const confirmed = await confirm({
      content: t('loans.repay_confirm', { total }),
      confirmText: t('loans.repay'),
      cancelText: t('loans.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await repayLoan(loan.id, idempotency.keyFor({ id: loan.id }));
      idempotency.done();
      showToast({ content: t('loans.repaid'), duration: 2000 });
      await queryClient.invalidateQueries({ queryKey: loansQueryKey });
    } catch {
      // The client already toasted the localized error (e.g. not enough USDT); nothing changed.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tw-loan-repay">
      <span>
        {t('loans.due_now')} <strong data-testid="loan-due-now">{total}</strong>
      </span>
      <Button color="primary" size="small" loading={busy} onClick={() => void onRepay()}>
        {t('loans.repay')}
      </Button>
    </div>
  );
}
