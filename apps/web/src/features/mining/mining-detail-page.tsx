import { ERROR_CODES } from '@tradewind/contract/errors';
import type { MiningRentalDetail } from '@tradewind/contract/mining';
import { ErrorBlock, ProgressBar, Skeleton } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { formatDateTime, formatDecimal, formatPercent } from '@/lib/format.ts';
import { isNotFound } from '@tradewind/http-client/api-error';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { ratePercent } from './amounts.ts';
import { useMiningRental } from './api/get-rentals.ts';
import { StatusTag } from './components/status-tag.tsx';
import './mining.css';

/** /MiningDetail?id=: one of my rentals, its terms, what it has paid, and each payout. */
export function MiningDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d{1,18}$/.test(raw) ? raw : null;
  const rental = useMiningRental(id);
  return (
    <Page title={t('routes.MiningDetail')} backTo="/MiningHis">
      {rental.isPending && id ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={8} animated />
        </div>
      ) : !rental.data &&
        rental.isError &&
        !isNotFound(rental.error, ERROR_CODES.MINING_RENTAL_NOT_FOUND) ? (
        <div className="tw-card">
          <LoadFailed
            error={rental.error}
            onRetry={() => void rental.refetch()}
            retrying={rental.isFetching}
          />
        </div>
      ) : !rental.data ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('mining.rental_not_found')} description="" />
        </div>
      ) : (
        <RentalDetail rental={rental.data} />
      )}
    </Page>
  );
}

function RentalDetail({ rental }: { rental: MiningRentalDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const usdt = (value: string) => `${formatDecimal(value, lang)} USDT`;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, lang) : '—');
  const percent = Math.max(
    0,
    Math.min(100, Math.round((rental.paidDays * 100) / rental.periodDays)),
  );
  const rows: [string, string][] = [
    [t('mining.quantity'), String(rental.quantity)],
    [t('mining.unit_price'), usdt(rental.unitPrice)],
    [t('mining.pay_amount'), usdt(rental.amount)],
    [
      t('mining.daily_yield'),
      `${usdt(rental.dailyYield)} (${formatPercent(ratePercent(rental.dailyRate), lang)})`,
    ],
    [t('mining.period'), t('mining.days', { count: rental.periodDays })],
    [t('mining.rented_at'), when(rental.createdAt)],
    [t('mining.started_at'), when(rental.startedAt)],
    [t('mining.ends_at'), when(rental.endsAt)],
  ];
  if (rental.status === 'active' && rental.nextPayoutAt)
    rows.push([t('mining.next_payout'), when(rental.nextPayoutAt)]);
  return (
    <>
      <section className="tw-card" data-testid="rental-summary">
        <div className="tw-mining-card-head">
          <h2>{rental.productName}</h2>
          <StatusTag status={rental.status} />
        </div>
        <div className="tw-mining-totals">
          <div>
            <span className="tw-muted">{t('mining.total_profit')}</span>
            <strong data-testid="total-profit">{usdt(rental.totalProfit)}</strong>
          </div>
          <div>
            <span className="tw-muted">{t('mining.paid_out')}</span>
            <strong data-testid="paid-out">{usdt(rental.paidOut)}</strong>
          </div>
        </div>
        {/* The bar only draws the sentence below it, which says the same to a screen reader. */}
        <ProgressBar percent={percent} style={{ '--track-width': '6px' }} aria-hidden />
        <p className="tw-muted tw-mining-hint">
          {t('mining.days_paid', { paid: rental.paidDays, total: rental.periodDays })}
        </p>
        <p className="tw-mining-note">
          {t(`mining.note.${rental.status}`, {
            amount: usdt(rental.amount),
            reason: rental.reason ?? '',
          })}
        </p>
      </section>
      <section className="tw-card">
        <dl className="tw-mining-rows">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <Link to={`/MiningInfo?id=${rental.productId}`} className="tw-link">
          {t('mining.terms_link')}
        </Link>
      </section>
      <section className="tw-card" aria-labelledby="payouts-title">
        <h3 id="payouts-title" className="tw-mining-subtitle">
          {t('mining.payouts')}
        </h3>
        {rental.payouts.length === 0 ? (
          <p className="tw-muted">{t('mining.no_payouts')}</p>
        ) : (
          <ul className="tw-mining-payouts" data-testid="payouts">
            {rental.payouts.map((payout) => (
              <li key={payout.day}>
                <span>{t('mining.day_n', { day: payout.day })}</span>
                <span className="tw-muted">{when(payout.paidAt)}</span>
                <strong className="tw-mining-plus">+{usdt(payout.amount)}</strong>
              </li>
            ))}
          </ul>
        )}
        {rental.principalReturned && (
          <p className="tw-mining-note">
            {t('mining.principal_returned', { amount: usdt(rental.amount) })}
          </p>
        )}
      </section>
    </>
  );
}
